import Foundation
import Testing

private let expectedDonations = """
  timestamp,user,kind,intent,parameters
  2026-03-02T08:01:00Z,default,com.apple.mobilesafari,,
  2026-03-02T08:07:00Z,default,com.apple.MobileSMS,,
  2026-03-02T08:08:00Z,default,com.apple.MobileSMS,INSendMessageIntent,direction=outgoing;group=chat-1;verb=SendMessage
  2026-03-02T20:01:00Z,default,com.apple.Maps,,
  2026-03-02T20:02:00Z,default,com.apple.Maps,INGetDirectionsIntent,verb=GetDirections
  2026-03-03T08:01:00Z,default,com.apple.mobilesafari,,

  """

@Suite("smartstack import biome")
struct ImportBiomeCommandTests {
  private func text(_ name: String, in folder: URL) -> String? { BiomeFixtureFolder.text(name, in: folder) }
  private func copy() throws -> URL { try BiomeFixtureFolder.copy() }

  private let inFocusV1 = "biome/streams/restricted/App.InFocus/local/794131200000000"
  private let outputs = ["--out", "log.csv", "--visits-out", "visits.csv"]

  @Test func importsBothStreamsAndTheLogsReplay() throws {
    let folder = try CLI.temporaryFolder()
    let r = try CLI.run(["import", "biome", BiomeFixtureFolder.url.path] + outputs + ["--json"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(text("log.csv", in: folder) == expectedDonations)
    #expect(
      text("visits.csv", in: folder)
        == "timestamp,user\n2026-03-02T08:00:00Z,default\n2026-03-02T08:06:00Z,default\n"
        + "2026-03-02T20:00:00Z,default\n2026-03-03T08:00:00Z,default\n")
    #expect(r.stderr.contains("rows read: 16"))
    #expect(r.stderr.contains("dropped:   deleted 1, other_state 0, no_bundle_id 0, bad_rows 0"))
    #expect(r.stdout.contains("\"format\":\"biome\""))
    #expect(r.stdout.contains("\"container\":\"segb\""))
    let replay = try CLI.run(
      [
        "replay", "--log", "log.csv", "--visits", "visits.csv", "--strategy", "mru,mfu",
        "--out", "reports", "--quiet",
      ], in: folder)
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(text("reports/runs.csv", in: folder)?.contains("mfu") == true)
  }

  @Test func aSingleFileAndOneStreamImportOnlyThatStream() throws {
    let folder = try copy()
    let r = try CLI.run(
      ["import", "biome", "biome/streams/restricted/App.Intent/local/794131200000000", "--out", "log.csv"],
      in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(text("log.csv", in: folder)?.split(separator: "\n").count == 3)
    let only = try CLI.run(["import", "biome", "biome", "--stream", "App.Intent", "--out", "i.csv"], in: folder)
    #expect(only.status == 0)
    #expect(text("i.csv", in: folder) == text("log.csv", in: folder))
  }

  @Test func aTruncatedFileExits65NamingFileAndOffsetAndWritesNothing() throws {
    let folder = try copy()
    let url = folder.appendingPathComponent(inFocusV1)
    let bytes = try Data(contentsOf: url)
    try bytes.prefix(bytes.count - 7).write(to: url)
    let r = try CLI.run(["import", "biome", "biome"] + outputs, in: folder)
    #expect(r.status == 65)
    #expect(r.stderr.contains("App.InFocus/local/794131200000000: offset 0: the header says the records end at byte"))
    #expect(r.stderr.contains("(truncated)"))
    #expect(text("log.csv", in: folder) == nil && text("visits.csv", in: folder) == nil)
  }

  @Test func aCRCMismatchExits65UnlessSkipped() throws {
    let folder = try copy()
    let url = folder.appendingPathComponent(inFocusV1)
    var bytes = [UInt8](try Data(contentsOf: url))
    bytes[56 + 32] ^= 0xFF  // the first payload byte
    try Data(bytes).write(to: url)
    let r = try CLI.run(["import", "biome", "biome"] + outputs, in: folder)
    #expect(r.status == 65)
    #expect(r.stderr.contains("794131200000000: offset 56: CRC-32 mismatch"))
    #expect(text("log.csv", in: folder) == nil)
    let skip = try CLI.run(["import", "biome", "biome", "--skip-bad-rows"] + outputs, in: folder)
    #expect(skip.status == 0, "\(skip.stderr)")
    #expect(skip.stderr.contains("offset 56: CRC-32 mismatch"))
    #expect(skip.stderr.contains("bad_rows 1"))
    #expect(text("visits.csv", in: folder)?.contains("2026-03-02T08:00:00Z") == false)
  }

  @Test func badInputAndUsageExitWithTheirCodes() throws {
    let folder = try CLI.temporaryFolder()
    #expect(try CLI.run(["import", "biome", "missing", "--out", "log.csv"], in: folder).status == 66)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("empty"), withIntermediateDirectories: false)
    #expect(try CLI.run(["import", "biome", "empty", "--out", "log.csv"], in: folder).status == 66)
    // An output inside the input folder is refused before it is read: never write into evidence.
    #expect(try CLI.run(["import", "biome", ".", "--out", "log.csv"], in: folder).status == 64)
    let stream = try CLI.run(
      ["import", "biome", BiomeFixtureFolder.url.path, "--stream", "App.Other", "--out", "l.csv"], in: folder)
    #expect(stream.status == 64)
    #expect(stream.stderr.contains("--stream must be App.InFocus or App.Intent"))
    let member = try CLI.run(
      ["import", "biome", BiomeFixtureFolder.url.path, "--member", "x", "--out", "l.csv"], in: folder)
    #expect(member.status == 64)
  }
}
