import Foundation
import Testing
import SmartStackTestSupport

/// Runs the built `smartstack` binary as a user would and captures what it prints.
///
/// The binary is found next to the test bundle (SwiftPM puts both in the same
/// products folder), or where `SMARTSTACK_CLI_TESTS_BINARY` says, so these are true
/// end-to-end tests: argument parsing, exit codes, stdout and stderr.
struct CLI {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// `SMARTSTACK_CLI_TESTS_BINARY` when it is set: Scripts/sanitizers.sh runs the tests that
  /// feed the binary hostile files on the AddressSanitizer build's binary this way.
  static var binary: URL {
    if let path = ProcessInfo.processInfo.environment["SMARTSTACK_CLI_TESTS_BINARY"], !path.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: path) else {
        fatalError("SMARTSTACK_CLI_TESTS_BINARY=\(path): no executable file there")
      }
      return URL(fileURLWithPath: path)
    }
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // Linux: .build/debug/SmartStackLabPackageTests.xctest is a file in the products folder.
    // macOS: the bundle is a folder; walk up until the binary is found.
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("smartstack")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir = dir.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("smartstack")
  }

  /// A `launcher` for `run` that starts the binary inside the cgroup folder `group` (the
  /// shell moves itself in, then becomes the binary).
  static func inCgroup(_ group: String) -> [String] {
    ["/bin/sh", "-c", "echo $$ > \"$0\"/cgroup.procs && exec \"$@\"", group]
  }

  /// Runs `smartstack ARGS...` in `directory` (default: a fresh temporary folder), with
  /// `environment` added to this process's and the variables in `unsetting` removed. With
  /// `launcher` (a program and its arguments, e.g. `["/usr/bin/taskset", "-c", "0"]`), runs
  /// `LAUNCHER... smartstack ARGS...`: the launcher must end by running the binary.
  @discardableResult
  static func run(
    _ arguments: [String], in directory: URL? = nil, stdin: String? = nil,
    environment: [String: String] = [:], unsetting: [String] = [], launcher: [String] = []
  ) throws -> Result {
    let process = Process()
    if let program = launcher.first {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = launcher.dropFirst() + [binary.path] + arguments
    } else {
      process.executableURL = binary
      process.arguments = arguments
    }
    if !environment.isEmpty || !unsetting.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        .filter { !unsetting.contains($0.key) }
    }
    process.currentDirectoryURL = directory ?? TestFolders.root
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    // Read both pipes concurrently with the process so large outputs cannot deadlock.
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      outData = out.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// A fresh, empty temporary folder for one test.
  static func temporaryFolder() throws -> URL {
    let url = try TestFolders.fresh("smartstack-tests")
    return url
  }

  /// The bytes of every entry of `folder` by name (nil for a folder or an unreadable file).
  static func files(in folder: URL) throws -> [String: Data?] {
    var files: [String: Data?] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      files[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
    }
    return files
  }

  /// The report files of `folder` (not hidden, not `manifest.json`), by name: what a
  /// merge must write byte for byte as one run does.
  static func reports(_ folder: URL) throws -> [String: Data] {
    var found: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where !name.hasPrefix(".") && name != "manifest.json" {
      found[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return found
  }

  /// Writes `text` to `name` inside `folder` and returns its path.
  @discardableResult
  static func write(_ text: String, to name: String, in folder: URL) throws -> String {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url.path
  }
}

@Suite("Command line")
struct CommandLineTests {
  @Test func helpListsTheCommands() throws {
    let r = try CLI.run(["--help"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("validate"))
    #expect(r.stdout.contains("relevance"))
  }

  @Test func unknownOptionIsAUsageError() throws {
    let r = try CLI.run(["validate", "--no-such-option"])
    #expect(r.status == 64)
  }
}
