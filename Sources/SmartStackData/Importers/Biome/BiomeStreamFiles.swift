import Foundation
import SmartStackBase

/// The Biome streams the importer reads.
public enum BiomeStream: String, Sendable, Hashable, CaseIterable {
  /// `App.InFocus`: apps gaining and losing the foreground (`BiomeAppInFocusEvent`).
  case inFocus = "App.InFocus"
  /// `App.Intent`: intents apps donated (`BiomeAppIntentEvent`).
  case intent = "App.Intent"
}

/// The SEGB files to import from a path, each with its stream.
///
/// Accepted paths, tried in this order (stream folder names are matched exactly):
///
/// 1. **a file**: one SEGB file; its stream is the `App.InFocus` or `App.Intent` component
///    nearest to it in the path (`.../App.Intent/local/745...`), or `stream` when given;
/// 2. **a stream folder's `local` folder** (`.../App.InFocus/local`): its files; with
///    `stream`, any `local` folder (older iOS versions named the intents stream's folder
///    `AppIntent`);
/// 3. **a stream folder** (`.../App.InFocus`): the files of its `local` folder;
/// 4. **a folder holding stream folders**, directly (`.../Biome/streams/restricted`), or
///    under `restricted/` (`.../Biome/streams`), or under `streams/restricted/`
///    (`.../Biome`): the `local` files of every stream folder found there, `App.InFocus`
///    first.
///
/// In a `local` folder, the regular files whose names do not start with `.` are read
/// (Biome names them with numbers; hidden files such as `.DS_Store` are ignored), in
/// byte order of their names, so the result never depends on the order the file system
/// lists them in. Sub-folders (`tombstone/`, which holds deletion bookkeeping) are not
/// read. The `remote/` folders beside `local/` hold records synced from the person's
/// other devices and are not read: the Smart Stack is a per-device feature.
public struct BiomeStreamFiles: Sendable {
  /// One file to read.
  public struct File: Sendable, Hashable {
    public var path: String
    public var stream: BiomeStream
  }

  /// The files, in reading order.
  public let files: [File]

  /// The files of `path` (see the type's documentation).
  ///
  /// - Parameter stream: the stream of a single file whose path names none; when given,
  ///   it also limits a folder to that stream.
  /// - Throws: `InputFileError` when `path` does not exist, or is a folder in none of the
  ///   accepted layouts, or is a file whose stream is unknown.
  public init(path: String, stream: BiomeStream? = nil) throws {
    let fm = FileManager.default
    var isFolder: ObjCBool = false
    guard fm.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw InputFileError(path: path, reason: "no such file or folder")
    }
    let url = URL(fileURLWithPath: path)
    if !isFolder.boolValue {
      let components = url.standardizedFileURL.pathComponents
      let named = components.reversed().lazy.compactMap { BiomeStream(rawValue: $0) }.first
      guard let found = stream ?? named else {
        throw InputFileError(
          path: path,
          reason:
            "the path names no Biome stream (App.InFocus or App.Intent); give one with --stream")
      }
      files = [File(path: path, stream: found)]
      return
    }
    let name = url.standardizedFileURL.lastPathComponent
    let parent = url.standardizedFileURL.deletingLastPathComponent().lastPathComponent
    let wanted = stream.map { [$0] } ?? BiomeStream.allCases
    // Paths are joined as text, so messages name files the way the user named the input.
    var folders: [(String, BiomeStream)] = []
    if name == "local", let s = BiomeStream(rawValue: parent) ?? stream {
      folders = [(path, s)]
    } else if let s = BiomeStream(rawValue: name) {
      folders = [(Self.join(path, "local"), s)]
    } else {
      for prefix in ["", "restricted", "streams/restricted"] {
        let base = prefix.isEmpty ? path : Self.join(path, prefix)
        folders = wanted.compactMap { s in
          let stream = Self.join(base, s.rawValue)
          return Self.isFolder(stream) ? (Self.join(stream, "local"), s) : nil
        }
        if !folders.isEmpty { break }
      }
    }
    folders = folders.filter { stream == nil || $0.1 == stream }
    if folders.isEmpty {
      throw InputFileError(
        path: path,
        reason:
          "holds no Biome stream folder: give a SEGB file, a stream's local folder (.../App.InFocus/local), a stream folder, or a folder with App.InFocus or App.Intent in it, in restricted/ or streams/restricted/"
      )
    }
    var found: [File] = []
    for (folder, s) in folders {
      found += try Self.segmentFiles(in: folder).map { File(path: $0, stream: s) }
    }
    files = found
  }

  static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  static func isFolder(_ path: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
  }

  /// The regular, non-hidden files directly in `folder`, sorted by the bytes of their names.
  static func segmentFiles(in folder: String) throws -> [String] {
    // A stream folder without `local/` (only `remote/`, say) has no records of this device.
    guard isFolder(folder) else { return [] }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder)
    } catch {
      throw InputFileError(path: folder, reason: "cannot list the folder")
    }
    return names.filter { !$0.hasPrefix(".") }
      .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      .map { join(folder, $0) }
      .filter { !isFolder($0) }
  }
}
