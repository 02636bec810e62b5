import Testing
@testable import MediaEncoder
import VideoCapture
import MediaValues

@Suite struct H264BitstreamTests {
    // SPS, PPS, IDR slice, each behind a 4- or 3-byte start code.
    static let accessUnit: [UInt8] = [0, 0, 0, 1, 0x67, 0x42, 0x00, 0x1E, 0, 0, 0, 1, 0x68, 0xCE, 0x38, 0x80, 0, 0, 1, 0x65, 0x88, 0x84]

    @Test func findsParameterSetsAndIDR() {
        Self.accessUnit.withUnsafeBytes { bytes in
            let units = H264Bitstream.nalUnits(bytes)
            #expect(units.map(\.type) == [7, 8, 5])
            #expect(H264Bitstream.parameterSets(bytes, units: units) == [0, 0, 0, 1, 0x67, 0x42, 0x00, 0x1E, 0, 0, 0, 1, 0x68, 0xCE, 0x38, 0x80])
            #expect(H264Bitstream.containsIDR(units))
        }
    }

    @Test func nonIDRSliceHasNoParameterSets() {
        let slice: [UInt8] = [0, 0, 0, 1, 0x41, 0x9A, 0x00]
        slice.withUnsafeBytes { bytes in
            let units = H264Bitstream.nalUnits(bytes)
            #expect(H264Bitstream.parameterSets(bytes, units: units) == nil)
            #expect(!H264Bitstream.containsIDR(units))
        }
    }
}

@Suite struct ImagePlanesTests {
    @Test func planarLayoutsFollowV4L2() {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        defer { buffer.deallocate() }
        let base = UnsafePointer<UInt8>(buffer.assumingMemoryBound(to: UInt8.self))
        let yu12 = ImagePlanes(CaptureFormat(pixelFormat: .yu12, width: 64, height: 48, frameRate: FrameRate(30)), base: buffer)
        #expect(yu12.data[1]! - base == 64 * 48)
        #expect(yu12.data[2]! - base == 64 * 48 + 32 * 24)
        #expect(yu12.linesize[1] == 32)
        let yv12 = ImagePlanes(CaptureFormat(pixelFormat: .yv12, width: 64, height: 48, frameRate: FrameRate(30)), base: buffer)
        #expect(yv12.data[1]! - base == 64 * 48 + 32 * 24)  // V comes first in memory
        let padded = ImagePlanes(CaptureFormat(pixelFormat: .nv12, width: 60, height: 48, bytesPerLine: 64, frameRate: FrameRate(30)), base: buffer)
        #expect(padded.data[1]! - base == 64 * 48)
        #expect(padded.linesize[0] == 64 && padded.linesize[1] == 64)
        #expect(ImagePlanes.requiredBytes(CaptureFormat(pixelFormat: .yuyv, width: 64, height: 48, frameRate: FrameRate(30))) == 64 * 2 * 48)
    }

    @Test func oddSizesAreRejectedByTheEncoder() {
        #expect {
            try MP4Encoder(path: "/tmp/never.mp4", input: CaptureFormat(pixelFormat: .yuyv, width: 15, height: 15, frameRate: FrameRate(30)),
                            settings: EncoderSettings())
        } throws: { error in
            error as? MediaError == MediaError(.badInput, .sizeNotEncodable(width: 15, height: 15))
        }
    }
}
