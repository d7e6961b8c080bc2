import Foundation
import Testing

/// `import knowledgec|powerlog --context-out FILE` writes the context the database holds
/// beside the logs, and `validate --context` and `replay --context` take it as written.
@Suite("smartstack import --context-out: a device's context, ready for validate and replay")
struct ImportContextCommandTests {
  private func text(_ name: String, in folder: URL) -> String? {
    try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  /// `smartstack import FORMAT INPUT --out LOG ARGUMENTS...` in `folder`.
  private func importing(_ format: String, _ input: String, _ arguments: [String], in folder: URL) throws -> CLI.Result {
    try CLI.run(["import", format, input] + arguments, in: folder)
  }

  @Test("the knowledgeC fixture's context imports, validates and replays beside its logs")
  func knowledgeCEndToEnd() throws {
    let folder = try CLI.temporaryFolder()
    try database("knowledgeC.db", from: "knowledgeC-ios.sql", in: folder)
    let r = try importing(
      "knowledgec", "knowledgeC.db",
      ["--out", "kc.csv", "--visits-out", "kc-visits.csv", "--context-out", "kc-context.csv"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("kc-context.csv (5 context changes, 1 row without a state)"), "\(r.stderr)")
    #expect(text("kc-context.csv", in: folder)?.hasPrefix(
      "timestamp,user,signal,value,utc_offset\n2026-03-02T07:00:00+01:00,default,charging,true,3600\n") == true)
    let validate = try CLI.run(["validate", "kc.csv", "--context", "kc-context.csv"], in: folder)
    #expect(validate.status == 0, "\(validate.stderr)")
    #expect(validate.stdout.contains("context changes:    5"), "\(validate.stdout)")
    #expect(validate.stdout.contains("context headphones: disconnected"), "\(validate.stdout)")
    let replay = try CLI.run(
      [
        "replay", "--log", "kc.csv", "--visits", "kc-visits.csv", "--context", "kc-context.csv",
        "--strategy", "context-mfu", "--out", "report",
      ], in: folder)
    #expect(replay.status == 0, "\(replay.stderr)")
  }

  @Test("PowerLog's charging state as JSON Lines validates beside its log")
  func powerLogJSONLines() throws {
    let folder = try CLI.temporaryFolder()
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir"), withIntermediateDirectories: true)
    let folderOutput = try importing("knowledgec", "knowledgeC.db", ["--out", "kc.csv", "--context-out", "dir"], in: folder)
    #expect(folderOutput.status == 73, "\(folderOutput.stderr)")
    #expect(text("kc.csv", in: folder) == nil)
    try database("CurrentPowerlog.PLSQL", from: "powerlog.sql", in: folder)
    let r = try importing(
      "powerlog", "CurrentPowerlog.PLSQL", ["--out", "pl.csv", "--context-out", "pl-context.jsonl"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      text("pl-context.jsonl", in: folder) == """
        {"timestamp":"2026-03-02T07:55:00Z","user":"default","signal":"charging","value":"true"}
        {"timestamp":"2026-03-02T08:01:40Z","user":"default","signal":"charging","value":"false"}

        """)
    let validate = try CLI.run(["validate", "pl.csv", "--context", "pl-context.jsonl"], in: folder)
    #expect(validate.status == 0, "\(validate.stderr)")
  }

  @Test("a database without context writes no context file, says so, and leaves an old one alone")
  func noContext() throws {
    let folder = try CLI.temporaryFolder()
    try database("knowledgeC.db", from: "knowledgeC-no-intent-columns.sql", in: folder)
    try CLI.write("old\n", to: "ctx.csv", in: folder)
    let r = try importing(
      "knowledgec", "knowledgeC.db", ["--out", "kc.csv", "--context-out", "ctx.csv", "--quiet"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stderr == "warning: knowledgeC.db holds no context (no charging or headphones state in "
        + "/device/isPluggedIn, /audio/outputRoute): --context-out ctx.csv is not written\n")
    #expect(text("ctx.csv", in: folder) == "old\n")
    #expect(text("kc.csv", in: folder) != nil)
  }

  @Test("--context-out naming the input's write-ahead log, another output or a folder is refused, nothing written")
  func refusedOutputs() throws {
    let folder = try CLI.temporaryFolder()
    try database("knowledgeC.db", from: "knowledgeC-ios.sql", in: folder)
    for (output, message) in [
      ("knowledgeC.db-wal", "would overwrite the input's write-ahead log"),
      ("kc.csv", "--context-out names the same file as another output: 'kc.csv'"),
    ] {
      let r = try importing("knowledgec", "knowledgeC.db", ["--out", "kc.csv", "--context-out", output], in: folder)
      #expect(r.status == 64, "\(r.stderr)")
      #expect(r.stderr.contains(message), "\(r.stderr)")
      #expect(text("kc.csv", in: folder) == nil)
    }
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir"), withIntermediateDirectories: true)
    let folderOutput = try importing("knowledgec", "knowledgeC.db", ["--out", "kc.csv", "--context-out", "dir"], in: folder)
    #expect(folderOutput.status == 73, "\(folderOutput.stderr)")
    #expect(text("kc.csv", in: folder) == nil)
    try database("CurrentPowerlog.PLSQL", from: "powerlog.sql", in: folder)
    let r = try importing(
      "powerlog", "CurrentPowerlog.PLSQL", ["--out", "pl.csv", "--widgets-out", "w.csv", "--context-out", "w.csv"],
      in: folder)
    #expect(r.status == 64, "\(r.stderr)")
    #expect(r.stderr.contains("--context-out names the same file as another output: 'w.csv'"), "\(r.stderr)")
  }
}
