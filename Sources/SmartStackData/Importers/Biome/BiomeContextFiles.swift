import Foundation
import SmartStackBase

/// The Biome streams that hold context (docs/importers.md, "Context from devices"), read
/// only for `import biome --context-out`.
public enum BiomeContextStream: String, Sendable, Hashable, CaseIterable {
  /// `Device.Power.PluggedIn`: a charger plugged in or unplugged
  /// (`BiomeDevicePluggedInEvent`), the `charging` signal.
  case pluggedIn = "Device.Power.PluggedIn"
}

/// The SEGB files of the context streams under a path, in the layouts
/// `BiomeStreamFiles` accepts for a folder:
///
/// 1. **a stream's `local` folder** (`.../Device.Power.PluggedIn/local`) or **a stream
///    folder** (`.../Device.Power.PluggedIn`);
/// 2. **a folder holding stream folders**, directly (`.../biome/streams/restricted`), or
///    under `restricted/` (`.../biome/streams`), or under `streams/restricted/`
///    (`.../biome`): the first of the three that holds a context stream folder.
///
/// A `local` folder's files are listed as `BiomeStreamFiles.segmentFiles` lists them
/// (regular, non-hidden files in byte order of their names; `tombstone/` and `remote/`
/// are not read). On iOS 17 and later `Device.Power.PluggedIn` is in
/// `/private/var/db/biome/streams/restricted/`, not beside `App.InFocus` in
/// `/private/var/mobile/Library/Biome/streams/restricted/`.
public struct BiomeContextFiles: Sendable {
  /// The files to read, in reading order, each with its stream.
  public let files: [(path: String, stream: BiomeContextStream)]
  /// The path searched, as given.
  public let path: String

  /// The context streams' files under `path`; none when `path` is a file or a folder
  /// that holds no context stream folder.
  ///
  /// - Throws: `InputFileError` when `path` does not exist or a `local` folder cannot be
  ///   listed.
  public init(path: String) throws {
    self.path = path
    guard FileManager.default.fileExists(atPath: path) else {
      throw InputFileError(path: path, reason: "no such file or folder")
    }
    guard BiomeStreamFiles.isFolder(path) else {
      files = []
      return
    }
    let url = URL(fileURLWithPath: path).standardizedFileURL
    let name = url.lastPathComponent
    let parent = url.deletingLastPathComponent().lastPathComponent
    var folders: [(String, BiomeContextStream)] = []
    if name == "local", let stream = BiomeContextStream(rawValue: parent) {
      folders = [(path, stream)]
    } else if let stream = BiomeContextStream(rawValue: name) {
      folders = [(BiomeStreamFiles.join(path, "local"), stream)]
    } else {
      for prefix in ["", "restricted", "streams/restricted"] {
        let base = prefix.isEmpty ? path : BiomeStreamFiles.join(path, prefix)
        folders = BiomeContextStream.allCases.compactMap { stream in
          let folder = BiomeStreamFiles.join(base, stream.rawValue)
          return BiomeStreamFiles.isFolder(folder) ? (BiomeStreamFiles.join(folder, "local"), stream) : nil
        }
        if !folders.isEmpty { break }
      }
    }
    var found: [(path: String, stream: BiomeContextStream)] = []
    for (folder, stream) in folders {
      found += try BiomeStreamFiles.segmentFiles(in: folder).map { (path: $0, stream: stream) }
    }
    files = found
  }
}
