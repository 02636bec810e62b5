package import Settings
package import Failures

extension RecorderConfiguration {
    /// The video cache for a command that reads each post once (export, reel): its disk level
    /// only, since the memory level would just hold copies.
    package func onePassVideoCache() throws(RecorderError) -> VideoCache {
        var settings = try videoCacheSettings()
        settings.maxMemoryBytes = 0
        settings.memoryEntryLimit = 0
        return VideoCache(settings: settings)
    }

    /// The video cache's directory and bounds.
    package func videoCacheSettings() throws(RecorderError) -> VideoCache.Settings {
        let mib = Double(1 << 20)
        return VideoCache.Settings(directory: videoCacheDirectory,
                                   maxDiskBytes: Int64(try number("cache.max_mib") * mib),
                                   maxMemoryBytes: Int64(try number("cache.memory_mib") * mib))
    }
}
