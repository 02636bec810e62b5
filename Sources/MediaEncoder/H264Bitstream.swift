/// Just enough Annex B parsing to copy a camera's H.264 into MP4: find SPS/PPS and IDR pictures.
enum H264Bitstream {
    /// NAL unit types (ITU-T H.264 table 7-1) present in an Annex B buffer, with their payload ranges.
    static func nalUnits(_ bytes: UnsafeRawBufferPointer) -> [(type: UInt8, range: Range<Int>)] {
        var starts: [(payload: Int, code: Int)] = []
        var i = 0
        let n = bytes.count
        while i + 3 <= n {
            if bytes[i] == 0 && bytes[i + 1] == 0 && bytes[i + 2] == 1 {
                let code = (i > 0 && bytes[i - 1] == 0) ? i - 1 : i
                starts.append((i + 3, code))
                i += 3
            } else {
                i += 1
            }
        }
        var units: [(UInt8, Range<Int>)] = []
        for (k, start) in starts.enumerated() where start.payload < n {
            let end = k + 1 < starts.count ? starts[k + 1].code : n
            units.append((bytes[start.payload] & 0x1F, start.payload..<end))
        }
        return units
    }

    /// SPS and PPS as Annex B extradata, when the units carry both.
    static func parameterSets(_ bytes: UnsafeRawBufferPointer, units: [(type: UInt8, range: Range<Int>)]) -> [UInt8]? {
        guard let sps = units.first(where: { $0.type == 7 }), let pps = units.first(where: { $0.type == 8 }) else { return nil }
        return [0, 0, 0, 1] + Array(bytes[sps.range]) + [0, 0, 0, 1] + Array(bytes[pps.range])
    }

    static func containsIDR(_ units: [(type: UInt8, range: Range<Int>)]) -> Bool {
        units.contains { $0.type == 5 }
    }

    /// The SPS and PPS units of a stream header, in either form it comes in: an MP4's
    /// AVCDecoderConfigurationRecord (avcC, first byte 1) or Annex B (an encoder's).
    static func parameterSetUnits(_ header: [UInt8]) -> [[UInt8]] {
        guard header.first == 1 else {
            return header.withUnsafeBytes { raw in nalUnits(raw).filter { $0.type == 7 || $0.type == 8 }.map { Array(raw[$0.range]) } }
        }
        var units: [[UInt8]] = []
        var at = 5
        for countMask in [0x1F, 0xFF] {
            guard at < header.count else { return units }
            let count = Int(header[at]) & countMask
            at += 1
            for _ in 0..<count {
                guard at + 2 <= header.count else { return units }
                let length = Int(header[at]) << 8 | Int(header[at + 1])
                at += 2
                guard at + length <= header.count else { return units }
                units.append(Array(header[at..<(at + length)]))
                at += length
            }
        }
        return units
    }
}
