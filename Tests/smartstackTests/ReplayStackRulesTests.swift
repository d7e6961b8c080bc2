import Foundation
import Testing

/// `replay` applies the stack's own rules when asked (`--smart-rotate`,
/// `--rotation-limit`), enforced by the engine as in simulation; by default it ranks
/// freely at every visit, as before the engine owned the rules.
@Suite("replay applies the stack's rules from its options")
struct ReplayStackRulesTests {
  static func rotations(_ arguments: [String]) throws -> (status: Int32, rotations: Int?, stderr: String) {
    let dir = try CLI.temporaryFolder()
    try CLI.write(ReplayCommandTests.handLog, to: "hand.csv", in: dir)
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
}
