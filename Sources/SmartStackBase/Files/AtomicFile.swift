import Foundation

/// Whole-file writes that a reader never sees half done.
///
/// `write(_:to:)` writes to `.NAME.tmp-PID` in the same folder and renames it over
/// `NAME`. A killed process can leave such a temporary file behind; a run holding the
/// folder's lock removes them (`removeTemporaryFiles(in:)`), as it does Foundation's
/// `.dat.nosync*` files of earlier versions.
public enum AtomicFile {
  /// Writes `bytes` to `path` through a temporary file and a rename.
  ///
  /// - Parameter sync: `fsync` the file before the rename (for files that must survive a
  ///   power cut, not only a killed process).
  /// - Throws: `OutputFileError` with the system's reason in words ("No space left on
  ///   device"); a path that exists and is not a regular file is refused, not replaced.
  public static func write(_ bytes: [UInt8], to path: String, sync: Bool = false) throws {
    try OutputPath.checkFile(path)
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temporary = folder + "/." + name + ".tmp-\(getpid())"
    do {
      try create(temporary, bytes: bytes, name: name, sync: sync)
    } catch {
      throw OutputFileError(path: path, reason: error.reason)
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw OutputFileError(path: path, reason: reason)
    }
  }

  /// The reason a write failed, from `errno`.
  struct Failure: Error {
    var reason: String
  }

  /// Creates (or truncates) `path` and writes `bytes` into it; removes it on failure.
  /// `name` is the file's final name, for `FaultInjection.failsWrite`.
  static func create(_ path: String, bytes: [UInt8], name: String, sync: Bool) throws(Failure) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
    var failure: Int32 = 0
    let limit = FaultInjection.failsWrite(name) ? bytes.count / 2 : bytes.count
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < limit {
        let n = Foundation.write(fd, buffer.baseAddress! + offset, limit - offset)
        if n > 0 {
          offset += n
        } else if n < 0 && errno != EINTR {
          failure = errno
          return
        }
      }
      if limit < bytes.count { failure = ENOSPC }
    }
    if failure == 0 && sync && FaultInjection.syncs && fsync(fd) != 0 { failure = errno }
    if close(fd) != 0 && failure == 0 { failure = errno }
    guard failure == 0 else {
      unlink(path)
      throw Failure(reason: String(cString: strerror(failure)))
    }
  }

  /// True for the name of a temporary file left by a killed write: `.NAME.tmp-PID` (this
  /// type's) or `.dat.nosync…` (Foundation's atomic writes).
  public static func isTemporary(_ name: String) -> Bool {
    if name.hasPrefix(".dat.nosync") { return true }
    guard name.hasPrefix("."), let range = name.range(of: ".tmp-", options: .backwards) else {
      return false
    }
    let digits = name[range.upperBound...]
    return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
  }

  /// Removes the temporary files of killed writes directly inside `folder`, and returns
  /// their names (sorted). Call it only while holding the folder's `FolderLock`, so that
  /// no live write loses its file.
  @discardableResult
  public static func removeTemporaryFiles(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    let stale = names.filter(isTemporary).sorted()
    for name in stale { unlink(folder + "/" + name) }
    return stale
  }
}
