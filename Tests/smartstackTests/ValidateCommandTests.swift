import Foundation
import Testing

private let sampleLog = """
  timestamp,user,kind,intent,parameters
  2026-03-02T08:01:05Z,alice,RecentPurchases,ViewRecentPurchases,card=Acme;category=Grocery
  2026-03-02T08:30:00Z,bob,Weather,,
  2026-03-02T09:15:00Z,alice,Weather,ViewForecast,city=Berlin
  2026-03-04T08:01:05Z,alice,RecentPurchases,ViewRecentPurchases,card=Bolt;category=Travel

  """

@Suite("smartstack validate")
struct ValidateCommandTests {
  @Test func printsAHumanSummaryOfAValidLog() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(sampleLog, to: "log.csv", in: folder)
    let r = try CLI.run(["validate", "log.csv"], in: folder)
    #expect(r.status == 0)
    #expect(r.stderr == "")
    #expect(
      r.stdout == """
        file:           log.csv
        format:         csv
        time zone:      UTC
        events:         4
        users:          2
        kinds:          2
        intents:        2
        parameter keys: 3
        first:          2026-03-02T08:01:05Z
        last:           2026-03-04T08:01:05Z
        span:           2.00 days
        busiest hours:  08:00 (3), 09:00 (1)

        """)
  }

  @Test func jsonSummaryHasTheFieldsInAFixedOrder() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(sampleLog, to: "log.csv", in: folder)
    let r = try CLI.run(
      ["validate", "log.csv", "--json", "--timezone", "America/New_York"], in: folder)
    #expect(r.status == 0)
    // 08:01Z is 03:01 EST, 09:15Z is 04:15 EST.
    #expect(
      r.stdout
        == #"{"file":"log.csv","format":"csv","timezone":"America/New_York","events":4,"users":2,"kinds":2,"intents":2,"parameter_keys":3,"first":"2026-03-02T08:01:05Z","last":"2026-03-04T08:01:05Z","first_local":"2026-03-02T03:01:05-05:00","last_local":"2026-03-04T03:01:05-05:00","span_days":2,"busiest_hours":[{"hour":3,"donations":3},{"hour":4,"donations":1}],"ignored_columns":[]}"#
        + "\n")
  }

  @Test func listsTheColumnsItIgnoredInTextAndJSON() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      "timestamp,kind,device\n2026-03-02T08:00:00Z,A,phone\n", to: "log.csv", in: folder)
    let text = try CLI.run(["validate", "log.csv"], in: folder)
    #expect(text.status == 0)
    #expect(text.stdout.hasSuffix("ignored columns: 'device'\n"))
    let json = try CLI.run(["validate", "log.csv", "--json"], in: folder)
    #expect(json.stdout.hasSuffix(#","ignored_columns":["device"]}"# + "\n"))
  }

  @Test func firstAndLastAreAlsoShownInTheTimeZone() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(sampleLog, to: "log.csv", in: folder)
    let r = try CLI.run(["validate", "log.csv", "--timezone", "Europe/Berlin"], in: folder)
    #expect(r.stdout.contains("first:          2026-03-02T08:01:05Z (2026-03-02T09:01:05+01:00 local)\n"))
    #expect(r.stdout.contains("last:           2026-03-04T08:01:05Z (2026-03-04T09:01:05+01:00 local)\n"))
  }

  @Test func aMiscasedUserColumnExits65AtItsCell() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      "timestamp,User,kind\n2026-03-02T08:00:00Z,ana,A\n", to: "log.csv", in: folder)
    let r = try CLI.run(["validate", "log.csv"], in: folder)
    #expect(r.status == 65)
    #expect(r.stdout == "")
    #expect(r.stderr.contains("log.csv:1:11: unknown column 'User' (did you mean 'user'?"))
  }

  @Test func emptyLogHasNullFirstAndLast() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write("timestamp,kind\n", to: "empty.csv", in: folder)
    let r = try CLI.run(["validate", "empty.csv", "--json"], in: folder)
    #expect(r.status == 0)
    #expect(
      r.stdout
        == #"{"file":"empty.csv","format":"csv","timezone":"UTC","events":0,"users":0,"kinds":0,"intents":0,"parameter_keys":0,"first":null,"last":null,"first_local":null,"last_local":null,"span_days":0,"busiest_hours":[],"ignored_columns":[]}"#
        + "\n")
  }

  @Test func readsJSONLinesByExtensionOrByOption() throws {
    let folder = try CLI.temporaryFolder()
    let line = #"{"timestamp":"2026-03-02T08:00:00Z","kind":"Weather"}"# + "\n"
    try CLI.write(line, to: "log.jsonl", in: folder)
    try CLI.write(line, to: "log.txt", in: folder)
    for arguments in [
      ["validate", "log.jsonl", "--json"], ["validate", "log.txt", "--format", "jsonl", "--json"],
    ] {
      let r = try CLI.run(arguments, in: folder)
      #expect(r.status == 0, "\(arguments)")
      #expect(r.stdout.contains(#""format":"jsonl","timezone":"UTC","events":1"#), "\(arguments)")
    }
  }

  @Test func badLogExits65WithEveryProblemOnStderrAndNothingOnStdout() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      """
      timestamp,user,kind,intent,parameters
      2026-13-02T08:00:00Z,a,W,,
      2026-03-02T08:00:00Z,a,,,
      2026-03-02T08:00:00Z,a,W,,k=%zz

      """, to: "log.csv", in: folder)
    let r = try CLI.run(["validate", "log.csv"], in: folder)
    #expect(r.status == 65)
    #expect(r.stdout == "")
    #expect(
      r.stderr == """
        log.csv:2:6: timestamp: month 13 is out of range 01...12
        log.csv:3:24: kind is empty
        log.csv:4:29: parameters: bad percent escape '%zz': '%' must be followed by two hex digits

        """)
  }

  @Test func missingFileExits66() throws {
    let folder = try CLI.temporaryFolder()
    let r = try CLI.run(["validate", "nowhere.csv"], in: folder)
    #expect(r.status == 66)
    #expect(r.stdout == "")
    #expect(r.stderr == "nowhere.csv: cannot read: no such file\n")
  }

  @Test func unknownTimeZoneIsAUsageErrorNamingIt() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(sampleLog, to: "log.csv", in: folder)
    let r = try CLI.run(["validate", "log.csv", "--timezone", "Mars/Olympus_Mons"], in: folder)
    #expect(r.status == 64)
    #expect(r.stdout == "")
    #expect(r.stderr.contains("unknown time zone 'Mars/Olympus_Mons'"))
  }

  @Test func timingGoesToStderr() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(sampleLog, to: "log.csv", in: folder)
    let r = try CLI.run(["validate", "log.csv", "--timing"], in: folder)
    #expect(r.status == 0)
    #expect(r.stdout.hasPrefix("file:           log.csv\n"))
    #expect(r.stderr.hasPrefix("timing: read "))
    #expect(r.stderr.contains(" (4 rows, 0.00 MB): "))
    #expect(r.stderr.contains(" rows/s, "))
  }
}
