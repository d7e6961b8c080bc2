import Foundation
import SmartStackBase

/// An input file's size and content hash, as a manifest lists them.
public struct FileDigest: Sendable, Hashable {
  /// The path the file was read at (as given: relative to the current folder, or absolute).
  public var path: String
  /// The file's size in bytes.
  public var bytes: Int
  /// FNV-1a 64 of the file's bytes (`FNV1a`).
  public var hash: UInt64

  public init(path: String, bytes: Int, hash: UInt64) {
    self.path = path
    self.bytes = bytes
    self.hash = hash
  }

  /// The digest of the file at `path`, read mapped (`FNV1a.hashFile`: no whole-file array).
  ///
  /// - Throws: `InputFileError` when the file cannot be read.
  /// - Complexity: O(n) in the file's size.
  public init(path: String) throws {
    let (bytes, hash) = try FNV1a.hashFile(path)
    self.init(path: path, bytes: bytes, hash: hash)
  }

  /// `hash` as 16 lowercase hex digits (`FNV1a.hex`).
  public var hexHash: String { FNV1a.hex(hash) }
}

/// Digests of files computed on a thread of its own while the caller goes on (reads the
/// same files, say), then waited for.
///
/// **Invariants** (why `@unchecked Sendable` holds): `results` is written once, by the one
/// work item `init` starts, before it leaves `group`; it is read only in `wait()`, after
/// `group.wait()`, so the write happens before every read.
final class BackgroundDigests: @unchecked Sendable {
  private let group = DispatchGroup()
  private var results: [Result<FileDigest, any Error>] = []

  /// Starts hashing `paths`, one after the other, on a global queue.
  init(_ paths: [String]) {
    guard !paths.isEmpty else { return }
    group.enter()
    DispatchQueue.global().async { [self] in
      results = paths.map { path in Result { try FileDigest(path: path) } }
      group.leave()
    }
  }

  /// The digests in the order of the paths given to `init`, once all are done.
  func wait() -> [Result<FileDigest, any Error>] {
    group.wait()
    return results
  }
}
