import Foundation
import SmartStackKit

/// A file written in pieces into a temporary file beside `path` and renamed over `path`
/// by `commit()`, so a reader never sees a half-written output.
struct AtomicOutputFile {
  let path: String
  let temporaryPath: String
  let handle: FileHandle

  init(path: String) throws {
    try OutputPath.checkFile(path)
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
    else {
      throw OutputFileError(path: path, reason: "the folder \(folder) does not exist")
    }
    var isExistingFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isExistingFolder),
      isExistingFolder.boolValue
    {
      throw OutputFileError(path: path, reason: "is a folder, not a file")
    }
    self.path = path
    self.temporaryPath =
      url.deletingLastPathComponent()
      .appendingPathComponent(
        ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp"
      ).path
    guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporaryPath)
    else {
      throw OutputFileError(path: path, reason: "permission denied in \(folder)")
    }
    self.handle = handle
  }

  mutating func write(_ bytes: [UInt8]) throws {
    do {
      try handle.write(contentsOf: bytes)
    } catch {
      throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
    }
  }

  func commit() throws {
    do {
      try handle.close()
    } catch {
      throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
    }
    if rename(temporaryPath, path) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(atPath: temporaryPath)
      throw OutputFileError(path: path, reason: reason)
    }
  }

  func discard() {
    try? handle.close()
    try? FileManager.default.removeItem(atPath: temporaryPath)
  }
}

extension AtomicOutputFile {
  /// Runs `produce` with a sink: into `out` atomically (renamed into place when
  /// `produce` returns, removed when it throws), or to standard output when `out` is nil.
  static func writing(to out: String?, _ produce: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws {
    guard let out else {
      try produce { FileHandle.standardOutput.write(Data($0)) }
      return
    }
    var output = try AtomicOutputFile(path: out)
    do {
      try produce { try output.write($0) }
      try output.commit()
    } catch {
      output.discard()
      throw error
    }
  }
}
