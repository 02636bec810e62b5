import Testing
@testable import Library
@testable import Posting
import MediaEncoder
@testable import Publishing

/// A reel's title card: the guest's words, quoted and whole (their emoji too), then the question
/// they answer, plain (issue 49: the card quoted the question and dropped "🎉").
@Suite struct HighlightReelCardTests {
    private func metadata(caption: String, prompt: String?) -> PostMetadata {
        var metadata = PostMetadata(id: "K7Q2", video: "K7Q2.mp4", key: PostMetadata.videoKey(id: "K7Q2"), metadataKey: PostMetadata.metadataKey(id: "K7Q2"),
                                    url: "", ext: "mp4", width: 1280, height: 720, durationSeconds: 5, frameRate: 30, codec: "h264", byteSize: 5,
                                    sha256: "", caption: caption, author: .init(id: "a", name: "a"), createdAt: "2026-11-28T21:04:00Z", camera: "test",
                                    likeCount: 0, shareCount: 0, commentCount: 0)
        metadata.prompt = prompt
        return metadata
    }

    @Test func theGuestsWordsAreQuotedWithTheirEmojiAndTheQuestionIsNot() {
        let lines = HighlightReel.card(for: metadata(caption: "Congratulations Anna & Ben! 🎉", prompt: "What do you wish them?"), width: 1280, height: 720)
        #expect(lines.map(\.text).dropLast() == ["\u{201C}\u{2068}Congratulations Anna & Ben! 🎉\u{2069}\u{201D}", "What do you wish them?"], "\(lines)")
        #expect(lines.map(\.size).dropLast() == [0.075, 0.045])
        let laughing = HighlightReel.card(for: metadata(caption: "😂 ❤️\nline two", prompt: nil), width: 1280, height: 720)
        #expect(laughing.first?.text == "\u{201C}\u{2068}😂 ❤️ line two\u{2069}\u{201D}", "\(laughing)")
        // No words: no empty quotation marks, the question and the time alone.
        let silent = HighlightReel.card(for: metadata(caption: "", prompt: "Your wish?"), width: 1280, height: 720)
        #expect(silent.map(\.text).first == "Your wish?" && silent.count == 2, "\(silent)")
    }
}
