import Foundation
import MediaEncoder
import Testing
import MediaValues

/// Posters read back by ffprobe: the picture about a second in, at most 640 wide.
struct PosterFrameTests {
    /// An H.264 MP4 made by the ffmpeg CLI: black for `blackSeconds`, then white, 1280x720 at 30 fps.
    private func video(_ directory: String, blackSeconds: Double, whiteSeconds: Double) throws -> String {
        let path = "\(directory)/clip.mp4"
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y",
            "-f", "lavfi", "-i", "color=c=black:s=1280x720:r=30:d=\(blackSeconds)",
            "-f", "lavfi", "-i", "color=c=white:s=1280x720:r=30:d=\(whiteSeconds)",
            "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0", "-c:v", "libx264", "-pix_fmt", "yuv420p", path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// Width, height and mean brightness (0-255) of a JPEG, by ffprobe.
    private func look(_ jpeg: [UInt8], in directory: String) throws -> (width: Int, height: Int, brightness: Double) {
        let path = "\(directory)/poster.jpg"
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        let size = try Tools.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", path])
        let fields = size.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        #expect(fields.first == "mjpeg", "\(size.stdout) \(size.stderr)")
        let stats = try Tools.run("ffprobe", ["-v", "error", "-f", "lavfi", "-i", "movie=\(path),signalstats",
                                              "-show_entries", "frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0"])
        return (Int(fields.dropFirst().first ?? "") ?? 0, Int(fields.dropFirst(2).first ?? "") ?? 0,
                Double(stats.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
    }

    @Test func thePosterIsThePictureASecondInAtMost640Wide() throws {
        let directory = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Black for the first second: a poster from the start would be black.
        let poster = try look(try PosterFrame.jpeg(ofVideoAt: try video(directory, blackSeconds: 1, whiteSeconds: 2)), in: directory)
        #expect(poster.width == 640 && poster.height == 360, "\(poster)")
        #expect(poster.brightness > 200, "the poster is not the picture at 1 s: mean brightness \(poster.brightness)")
    }

    @Test func aShortClipGivesItsMiddlePicture() throws {
        let directory = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 0.6 s: the middle (0.3 s) is white, the start black.
        let poster = try look(try PosterFrame.jpeg(ofVideoAt: try video(directory, blackSeconds: 0.2, whiteSeconds: 0.4)), in: directory)
        #expect(poster.brightness > 200, "mean brightness \(poster.brightness)")
    }

    @Test func aFileThatIsNoVideoIsAClearError() throws {
        let directory = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/not-a-video.mp4"
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: path))
        #expect { try PosterFrame.jpeg(ofVideoAt: path) } throws: { error in
            (error as? MediaError)?.path == path
        }
    }
}
