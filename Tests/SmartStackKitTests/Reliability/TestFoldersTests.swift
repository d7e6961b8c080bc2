import Foundation
import Testing

import SmartStackTestSupport

/// The tests' own files go to one folder per test process, and the folders of test
/// processes that died are removed by the next one (`TestFolders`).
@Suite("The test suite's files: one folder per test process, none left by dead ones")
struct TestFoldersTests {
  @Test("the run's folder is named after this process and exists")
  func theRunsFolderIsThisProcesss() throws {
    let root = TestFolders.root
    #expect(root.lastPathComponent == TestFolders.prefix + "\(getpid())")
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder) && isFolder.boolValue)
    let fresh = try TestFolders.fresh("probe")
    #expect(fresh.deletingLastPathComponent().path == root.path)
  }

  @Test("the folders of dead test processes are removed, those of live ones and other names kept")
  func foldersOfDeadRunsAreRemoved() throws {
    let scratch = try TestFolders.fresh("dead-runs")
    // A process that has exited: its pid is free (until reused, which the check below
    // rules out for this test).
    let exited = Process()
    exited.executableURL = URL(fileURLWithPath: "/bin/true")
    try exited.run()
    exited.waitUntilExit()
    let dead = exited.processIdentifier
    try #require(kill(dead, 0) != 0 && errno == ESRCH)
    let names = [
      TestFolders.prefix + "\(dead)", TestFolders.prefix + "\(getppid())", TestFolders.prefix + "\(getpid())",
      TestFolders.prefix + "not-a-pid", "smartstack-tests-\(dead)",
    ]
    for name in names {
      try FileManager.default.createDirectory(
        at: scratch.appendingPathComponent(name), withIntermediateDirectories: true)
    }
    TestFolders.removeFoldersOfDeadRuns(in: scratch)
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
    #expect(left == names.dropFirst().sorted())
  }
}
