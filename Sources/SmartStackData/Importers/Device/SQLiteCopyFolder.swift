import Foundation
import SmartStackBase

/// The temporary folders that hold copies of evidence databases
/// (`$TMPDIR/smartstack-sqlite-PID-UUID/database.sqlite`, with its `-wal` and `-shm`).
///
/// A folder is removed by the run that made it (`SQLiteDatabase.close()`). A run that is
/// killed or crashes cannot, so every new copy first removes the folders left behind:
/// those whose process id (in the name) is no longer running, and folders of the older
/// layout without a process id (`smartstack-sqlite-UUID`) once they are more than a day
/// old. A folder of a running import is never touched (docs/importers.md, "Evidence").
enum SQLiteCopyFolder {
  static let prefix = "smartstack-sqlite-"
  /// How old a folder of the layout without a process id must be to be removed.
  static let legacyAge: TimeInterval = 24 * 3600

  /// Removes the leaked folders in `parent`, then creates a new one for this process and
  /// returns its path.
  ///
  /// - Throws: `InputFileError` naming `file` when the folder cannot be created.
  static func create(for file: String, in parent: String = defaultParent) throws -> String {
    removeLeaked(in: parent)
    let folder = parent + "/" + prefix + "\(getpid())-\(UUID().uuidString)"
    guard mkdir(folder, 0o700) == 0 else {
      throw InputFileError(path: file, reason: "cannot create a temporary folder for its copy")
    }
    return folder
  }

  /// `$TMPDIR` (or `/tmp`), without a trailing `/`.
  static var defaultParent: String {
    var path = FileManager.default.temporaryDirectory.path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    return path
  }

  /// Removes the folders in `parent` that no running process owns; returns their names,
  /// sorted.
  @discardableResult
  static func removeLeaked(in parent: String, now: Date = Date()) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
    var removed: [String] = []
    for name in names.sorted() where name.hasPrefix(prefix) && isLeaked(name, in: parent, now: now) {
      if (try? FileManager.default.removeItem(atPath: parent + "/" + name)) != nil {
        removed.append(name)
      }
    }
    return removed
  }

  /// Whether the folder `name` is left over: its process is gone (`kill(pid, 0)` fails
  /// with `ESRCH`), or it has no process id and is older than `legacyAge`.
  static func isLeaked(_ name: String, in parent: String, now: Date) -> Bool {
    let rest = name.dropFirst(prefix.count)
    if let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0 {
      return kill(pid, 0) != 0 && errno == ESRCH
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: parent + "/" + name)
    guard let modified = attributes?[.modificationDate] as? Date else { return false }
    return now.timeIntervalSince(modified) > legacyAge
  }

  /// Checks that `path` is a regular file that can be read (as `FileIO.readBytes` does).
  static func checkReadable(_ path: String) throws {
    close(try FileIO.openInput(path).descriptor)
  }

  /// Copies the regular file `source` to the new file `target` in chunks of 1 MiB (never
  /// the whole file in memory); `source` is only read. The one pointer used, the buffer's
  /// base address, is offset by at most the bytes just read into that buffer.
  ///
  /// - Throws: `InputFileError` for `source` (as `FileIO.readBytes`), `OutputFileError`
  ///   for `target`.
  static func copy(_ source: String, to target: String) throws {
    let (input, _) = try FileIO.openInput(source)
    defer { close(input) }
    let output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else {
      throw OutputFileError(path: target, reason: String(cString: strerror(errno)))
    }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if n == 0 { return }
      if n < 0 {
        if errno == EINTR { continue }
        throw InputFileError(path: source, reason: "permission denied or unreadable")
      }
      var written = 0
      while written < n {
        let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, n - written) }
        if w < 0 && errno == EINTR { continue }
        guard w > 0 else {
          throw OutputFileError(path: target, reason: String(cString: strerror(errno)))
        }
        written += w
      }
    }
  }
}
