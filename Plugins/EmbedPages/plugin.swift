import Foundation
import PackagePlugin

/// Puts the files under a target's `Pages/` folder (the kiosk's HTML, CSS and JavaScript) into the
/// binary as Swift string constants (`EmbeddedPages.files`): the pages are edited, linted and
/// unit-tested as files, and served from memory with no bundle, no Foundation and nothing to
/// install beside the binary.
@main
struct EmbedPages: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "Pages")
        // The pages' HTML, CSS and JavaScript (not package.json, which tells node the scripts are
        // modules), in a stable order: the generated source is the same for the same files.
        let kinds: Set<String> = ["html", "css", "js"]
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { kinds.contains($0.pathExtension) && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPages.swift")
        return [.buildCommand(
            displayName: "Embedding \(files.count) page files of \(target.name)",
            executable: try context.tool(named: "PageEmbedder").url,
            arguments: [output.path] + files.map(\.path),
            inputFiles: files,
            outputFiles: [output])]
    }
}
