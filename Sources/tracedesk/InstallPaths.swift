import Foundation

/// Where the files shipped with tracedesk (themes, the app settings) are looked for, in order:
/// `share/tracedesk` beside the binary's folder (`/usr/bin/tracedesk` finds
/// `/usr/share/tracedesk`, as the Debian package installs them), then folders of the source tree
/// above a `.build` binary (`FOLDER` in the binary's folder and up to four above it), then the
/// current directory's.
enum InstallPaths {
    /// The running binary, symlinks resolved: /proc/self/exe, so that a `tracedesk` found on
    /// PATH (whose argv[0] has no folder) is located too; argv[0] where /proc is not mounted.
    static var executable: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/")
        {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }

    /// The candidates for `name` (a file or folder name such as `themes` or
    /// `config/app-settings.json`): `installed` in the share folder, then `name` in the source
    /// tree's folders and the current directory.
    static func candidates(installed: String, name: String) -> [String] {
        var folder = executable.deletingLastPathComponent()
        var result = [folder.deletingLastPathComponent().appendingPathComponent("share/tracedesk/" + installed).path]
        for _ in 0..<5 {
            result.append(folder.appendingPathComponent(name).path)
            folder = folder.deletingLastPathComponent()
        }
        result.append(FileManager.default.currentDirectoryPath + "/" + name)
        return result
    }
}
