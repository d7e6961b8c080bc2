import Foundation
import Testing

/// `smartstack validate LOG --context FILE` (issue 33 item 1): the context file's summary
/// follows the log's; a bad context file is reported, located, with nothing on stdout.
@Suite("smartstack validate --context")
struct ValidateContextTests {
  static let log = """
    timestamp,user,kind
    2026-03-02T08:01:05Z,ana,Weather
    2026-03-02T09:15:00Z,ana,News

    """

  static let context = """
    timestamp,user,signal,value
    2026-03-02T07:00:00+01:00,ana,place,home
    2026-03-02T07:30:00+01:00,ana,place,commute
    2026-03-02T08:30:00+01:00,ana,place,work
    2026-03-02T08:30:00+01:00,ana,charging,false

    """

  @Test func theContextSummaryFollowsTheLogs() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(Self.log, to: "log.csv", in: folder)
    try CLI.write(Self.context, to: "context.csv", in: folder)
    let r = try CLI.run(["validate", "log.csv", "--context", "context.csv"], in: folder)
    #expect(r.status == 0)
    #expect(r.stderr == "")
    #expect(r.stdout.hasSuffix("""
      context:          context.csv
      context changes:  4
      context users:    1
      context place:    commute 66.7%, home 33.3%, work 0.0% (3 changes, 1 user)
      context charging: false 0.0% (1 change, 1 user)

      """), "\(r.stdout)")
    let json = try CLI.run(["validate", "log.csv", "--context", "context.csv", "--json"], in: folder)
    #expect(json.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let context = object?["context"] as? [String: Any]
    #expect(context?["changes"] as? Int == 4)
    let signals = context?["signals"] as? [[String: Any]]
    #expect(signals?.map { $0["signal"] as? String } == ["place", "charging"])
  }

  @Test func aBadContextFileIsLocatedAndNothingIsPrinted() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(Self.log, to: "log.csv", in: folder)
    try CLI.write(Self.context + "2026-03-02T09:00:00Z,ana,wifi,on\n", to: "context.csv", in: folder)
    let r = try CLI.run(["validate", "log.csv", "--context", "context.csv"], in: folder)
    #expect(r.status == 65)
    #expect(r.stdout == "")
    #expect(r.stderr.contains(
      "context.csv:6:26: unknown signal 'wifi': expected one of place, poi, charging, headphones, workout, rings, sleep, focus"))
  }
}
