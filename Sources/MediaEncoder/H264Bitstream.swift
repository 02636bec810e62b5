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
}
