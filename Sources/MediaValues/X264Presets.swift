/// libx264's presets, fastest first: what `shoot.preset` may be (`EncoderSettings.presets`).
package enum X264Presets {
    package static let all = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]
}
