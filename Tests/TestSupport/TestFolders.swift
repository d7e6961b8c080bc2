import Foundation

/// Where the tests write their files: one folder per test process,
/// `$TMPDIR/smartstack-test-run-PID` (`TMPDIR` or `/tmp`), removed when the process exits.
///
/// A test makes its own uniquely named folder or file inside `root` and need not remove
/// it. A process that does not exit normally (killed, crashed) leaves its folder
/// behind; the next test process removes every run folder whose process is gone, so a
/// machine that runs the suite again and again keeps at most the folders of the runs in
/// progress and of one that died.
public enum TestFolders {
  /// The run's folder, made (and the folders of dead runs removed) on first use.
  public static var root: URL { URL(fileURLWithPath: rootPath, isDirectory: true) }

  /// A new empty folder in `root`, named `prefix-UUID`.
  public static func fresh(_ prefix: String) throws -> URL {
    let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  public static let prefix = "smartstack-test-run-"

  static let rootPath: String = {
    let temporary = FileManager.default.temporaryDirectory
    removeFoldersOfDeadRuns(in: temporary)
    let url = temporary.appendingPathComponent("\(prefix)\(getpid())", isDirectory: true)
    try? FileManager.default.removeItem(at: url)
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      fatalError("cannot make the tests' folder \(url.path): \(error)")
    }
    atexit { try? FileManager.default.removeItem(atPath: TestFolders.rootPath) }
    return url.path
  }()

  /// Removes `prefix`PID folders in `folder` whose process no longer runs (`kill(pid, 0)`
  /// fails with `ESRCH`).
  public static func removeFoldersOfDeadRuns(in folder: URL) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name.hasPrefix(prefix) {
      guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid() else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
      }
    }
  }
}
