import Foundation
import Testing

/// The repository's root folder.
private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("Bundled datasets")
struct DatasetsTests {
  /// Every `smartstack simulate` line of Datasets/logs/regenerate.sh, run again, writes
  /// the committed sample logs byte for byte.
  @Test func sampleLogsRegenerateByteForByte() throws {
    let script = try String(
      contentsOf: root.appendingPathComponent("Datasets/logs/regenerate.sh"), encoding: .utf8)
    let commands = script.split(separator: "\n").filter { $0.hasPrefix("smartstack simulate ") }
    #expect(commands.count == 3)
    for command in commands {
      let words = command.split(separator: " ").map(String.init).dropFirst()
      let scratch = try CLI.temporaryFolder()
      var arguments: [String] = []
      var emitted = ""
      var previous = ""
      for word in words {
        switch previous {
        case "--scenario": arguments.append(root.appendingPathComponent(word).path)
        case "--emit-log":
          // The script emits into a scratch folder and copies the committed files.
          emitted = "Datasets/logs/" + URL(fileURLWithPath: word).lastPathComponent
          arguments.append(scratch.appendingPathComponent("emitted").path)
        case "--out": arguments.append(scratch.appendingPathComponent("out").path)
        default: arguments.append(word)
        }
        previous = word
      }
      let r = try CLI.run(arguments, in: scratch)
      #expect(r.status == 0, "\(command): \(r.stderr)")
      let committed = root.appendingPathComponent(emitted)
      let names = try FileManager.default.contentsOfDirectory(atPath: committed.path).sorted()
      #expect(names.count == 3, "\(emitted): \(names)")
      for name in names {
        let a = try Data(contentsOf: committed.appendingPathComponent(name))
        let b = try Data(contentsOf: scratch.appendingPathComponent("emitted/" + name))
        #expect(a == b, "\(emitted)/\(name) no longer regenerates byte for byte")
      }
    }
  }

  /// Every bundled scenario reads and simulates; every sample log validates.
  @Test func everyBundledScenarioAndLogIsValid() throws {
    let scenarios = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("Datasets/scenarios").path
    ).filter { $0.hasSuffix(".json") }.sorted()
    #expect(scenarios.count >= 7)
    for name in scenarios {
      let folder = try CLI.temporaryFolder()
      let r = try CLI.run(
        ["simulate", "--scenario", root.appendingPathComponent("Datasets/scenarios/" + name).path,
         "--days", "1", "--strategy", "mfu,smart-rotate", "--quiet"], in: folder)
      #expect(r.status == 0, "\(name): \(r.stderr)")
    }
    for log in ["commuter/donations.csv", "credit-card/donations.jsonl", "shift-worker/donations.csv", "tiny.csv"] {
      let r = try CLI.run(["validate", root.appendingPathComponent("Datasets/logs/" + log).path])
      #expect(r.status == 0, "\(log): \(r.stderr)")
    }
  }
}
