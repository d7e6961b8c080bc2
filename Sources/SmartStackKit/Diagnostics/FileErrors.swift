import Foundation

/// An input file that cannot be opened or read (missing, a folder, no permission).
public struct InputFileError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }
  public var description: String { "\(path): cannot read: \(reason)" }
}

/// An output file or folder that cannot be created or written.
public struct OutputFileError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }
  public var description: String { "\(path): cannot write: \(reason)" }
}

/// Whole-file reads and atomic writes.
public enum FileIO {
  /// Reads a whole file as bytes.
  ///
  /// - Throws: `InputFileError` when the path is missing, a folder, unreadable, or larger
  ///   than `InputLimits.maximumFileBytes` (refused before reading, not after running out
  ///   of memory).
  public static func readBytes(_ path: String) throws -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw InputFileError(path: path, reason: "no such file")
    }
    if isDirectory.boolValue { throw InputFileError(path: path, reason: "is a folder, not a file") }
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
      size > InputLimits.maximumFileBytes
    {
      throw InputFileError(
        path: path,
        reason:
          "the file is \(size) bytes, more than the limit of \(InputLimits.maximumFileBytes) bytes (2 GiB) for one input file; split it")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw InputFileError(path: path, reason: "permission denied or unreadable")
    }
    return [UInt8](data)
  }

  /// Writes `bytes` to `path` atomically: first to a temporary file in the same folder,
  /// then renamed over `path`, so a reader never sees a half-written file.
  ///
  /// - Throws: `OutputFileError` when the folder does not exist or is not writable.
  public static func writeAtomically(_ bytes: some Sequence<UInt8>, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    do {
      try Data(bytes).write(to: url, options: .atomic)
    } catch {
      throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
    }
  }

  /// Writes text atomically (UTF-8).
  public static func writeAtomically(_ text: String, to path: String) throws {
    try writeAtomically(Array(text.utf8), to: path)
  }
}
