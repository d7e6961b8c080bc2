import Foundation
import Testing

/// `replay` applies the stack's own rules when asked (the stack file's `smartRotate`,
/// `developerMode` and `rotationLimit`; `--smart-rotate`, `--rotation-limit` over them),
/// enforced by the engine as in simulation; by default it ranks freely at every visit,
/// as before the engine owned the rules.
@Suite("replay applies the stack's rules from its stack file and options")
struct ReplayStackRulesTests {
  /// The hand log's three kinds as a stack file, with `rules` (JSON members) appended.
  static func stackFile(_ rules: String = "") -> String {
    """
    {"instances": [{"id": "A", "kind": "A"}, {"id": "B", "kind": "B"}, {"id": "C", "kind": "C"}]\(rules.isEmpty ? "" : ",\n \(rules)")}

    """
  }

  static func rotations(_ arguments: [String], stack: String? = nil) throws -> (status: Int32, rotations: Int?, stderr: String) {
    let dir = try CLI.temporaryFolder()
    try CLI.write(ReplayCommandTests.handLog, to: "hand.csv", in: dir)
    var arguments = arguments
    if let stack {
      try CLI.write(stack, to: "stack.json", in: dir)
      arguments += ["--stack", "stack.json"]
    }
    let r = try CLI.run(["replay", "--log", "hand.csv", "--strategy", "mru", "--out", "out", "--quiet"] + arguments, in: dir)
    guard r.status == 0 else { return (r.status, nil, r.stderr) }
    let lines = try String(contentsOf: dir.appendingPathComponent("out/runs.csv"), encoding: .utf8).split(separator: "\n")
    let header = lines[0].split(separator: ",").map(String.init)
    let row = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    return (r.status, Int(row[header.firstIndex(of: "rotations")!]), r.stderr)
  }

  @Test func smartRotateOffAndTheRotationLimitBindInReplay() throws {
    let free = try Self.rotations([])
    #expect(free.status == 0, "\(free.stderr)")
    let unlimited = try #require(free.rotations)
    #expect(unlimited >= 4)
    // Smart Rotate off: the first widget shown stays (a replayed log has no swipes).
    #expect(try Self.rotations(["--smart-rotate", "off"]).rotations == 0)
    // One rotation per rolling hour and 24 hours: at most one a day over the log's two days.
    let limited = try #require(try Self.rotations(["--rotation-limit", "1/1"]).rotations)
    #expect(limited <= 2 && limited < unlimited)
    // `none` is the default, spelled out.
    #expect(try Self.rotations(["--rotation-limit", "none"]).rotations == unlimited)
  }

  @Test func aWrongRuleSettingIsAUsageError() throws {
    let bad = try Self.rotations(["--rotation-limit", "4"])
    #expect(bad.status == 64 && bad.stderr.contains("--rotation-limit must be 'none' or PER_HOUR/PER_DAY"), "\(bad.stderr)")
    let off = try Self.rotations(["--smart-rotate", "maybe"])
    #expect(off.status == 64 && off.stderr.contains("--smart-rotate must be 'on' or 'off'"), "\(off.stderr)")
  }

  @Test func theStackFileStatesTheRulesAndTheOptionsOverrideIt() throws {
    func count(_ arguments: [String], _ rules: String) throws -> Int? {
      let r = try Self.rotations(arguments, stack: Self.stackFile(rules))
      #expect(r.status == 0, "\(r.stderr)")
      return r.rotations
    }
    let free = try #require(try count([], ""))
    #expect(free >= 4)
    // A file that names no rule is unconstrained, as before.
    #expect(try count(["--rotation-limit", "none", "--smart-rotate", "on"], "") == free)
    // Smart Rotate off in the file, and `--smart-rotate on` over it.
    #expect(try count([], #""smartRotate": false"#) == 0)
    #expect(try count(["--smart-rotate", "on"], #""smartRotate": false"#) == free)
    // The file's rotation limit equals the same limit given as an option.
    let limited = try #require(try count(["--rotation-limit", "1/1"], ""))
    #expect(limited < free)
    #expect(try count([], #""rotationLimit": {"perHour": 1, "perDay": 1}"#) == limited)
    #expect(try count(["--rotation-limit", "none"], #""rotationLimit": {"perHour": 1, "perDay": 1}"#) == free)
    // Developer Mode off alone means the simulator's default limit, 4/40.
    #expect(try count([], #""developerMode": false"#) == (try count(["--rotation-limit", "4/40"], "")))
  }

  @Test func aWrongRuleInTheStackFileIsReportedAtItsLocation() throws {
    let r = try Self.rotations([], stack: Self.stackFile(#""swipeCooldownMinutes": -5"#))
    #expect(r.status != 0)
    #expect(r.stderr.contains("stack.json:2:"), "\(r.stderr)")
    #expect(r.stderr.contains("swipeCooldownMinutes"), "\(r.stderr)")
  }
}
