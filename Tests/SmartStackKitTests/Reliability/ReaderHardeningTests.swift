import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
import SmartStackTestSupport

/// What `body` threw, as `LINE:COLUMN: message` per diagnostic (or the error's text); [] when
/// it returned.
func diagnosticMessages(_ body: () throws -> Void) -> [String] {
  do {
    try body()
    return []
  } catch let list as DiagnosticList {
    return list.diagnostics.map { "\($0.line):\($0.column): \($0.message)" }
  } catch {
    return ["\(error)"]
  }
}

/// Issue 20, items 1-4 and 9: the readers' limits hold while they read, CR-only line ends
/// and out-of-range local times are refused, and the smaller holes stay closed. Each test
/// failed before its fix.
@Suite("Reliability: reader hardening (issue 20)")
struct ReaderHardeningTests {
  private func messages(_ body: () throws -> Void) -> [String] { diagnosticMessages(body) }

  private func donations(_ text: String, zone: ZoneRules = .utc, file: String = "d.csv") -> [String] {
    messages { _ = try DonationLog.read(bytes: Array(text.utf8), file: file, timeZone: zone) }
  }

  // MARK: 1. Memory on long records

  @Test func aRecordOfCommasKeepsNoFieldPastTheLineLimit() {
    // 3 MiB of commas: 3 Mi fields before the fix, at most one per byte of the first MiB now.
    let bytes = Array("a,b\n".utf8) + [UInt8](repeating: UInt8(ascii: ","), count: 3 << 20)
      + Array("\n1,2\n".utf8)
    bytes.withUnsafeBufferPointer { buffer in
      var csv = CSVReader(buffer)
      #expect(csv.next() == .record)
      guard case .problem(let p) = csv.next() else {
        Issue.record("the long record was not refused")
        return
      }
      #expect(p.line == 2 && p.column == InputLimits.maximumLineBytes + 1)
      #expect(p.message == InputLimits.lineTooLong(3 << 20))
      #expect(csv.fieldCount <= InputLimits.maximumLineBytes + 1)
      #expect(csv.next() == .record)  // the next line is still read
      #expect(String(decoding: csv.field(1), as: UTF8.self) == "2")
    }
  }

  @Test func aLineOfTabsKeepsNoFieldPastTheLineLimit() {
    let bytes = Array("a\tb\n".utf8) + [UInt8](repeating: 0x09, count: 3 << 20) + Array("\n1\t2\n".utf8)
    bytes.withUnsafeBufferPointer { buffer in
      var tsv = TabSeparatedReader(buffer)
      #expect(tsv.next() == .record)
      #expect(
        tsv.next()
          == .problem(offset: 4 + InputLimits.maximumLineBytes, message: InputLimits.lineTooLong(3 << 20)))
      #expect(tsv.fields.count <= InputLimits.maximumLineBytes + 2)
      #expect(tsv.next() == .record)
    }
  }

  @Test func aProblemBeforeTheLimitIsReportedBeforeTheLength() {
    let text = "timestamp,kind\n2026-03-02T08:00:00Z,a\"b" + String(repeating: ",", count: 2 << 20) + "\n"
    #expect(donations(text) == ["2:23: unexpected '\"' inside an unquoted field"])
  }

  // MARK: 2. CR-only line ends

  @Test func crOnlyLineEndsAreRefusedNotReadAsOneLine() {
    let cr = "carriage return (CR) without a line feed: lines must end with LF or CRLF"
      + " (convert CR-only line ends first, e.g. with tr '\\r' '\\n')"
    #expect(donations("timestamp,kind,user\r2026-03-02T08:00:00Z,News,ana\r") == ["1:20: \(cr)"])
    let visits = messages {
      _ = try VisitLog.read(bytes: Array("timestamp,user\r2026-03-02T08:00:00Z,ana\r".utf8), file: "v.csv")
    }
    #expect(visits == ["1:15: \(cr)"])
    // CRLF, a CR ending the input and a CR inside quotes are still fine.
    #expect(donations("timestamp,kind\r\n2026-03-02T08:00:00Z,\"a\rb\"\r\n2026-03-02T09:00:00Z,c\r") == [])
    let lsapp = messages {
      _ = try Array("user_id\tsession_id\ttimestamp\tapp_name\tevent_type\r1\t1\t2026-03-02 08:00:00\tMail\tOpened\r".utf8)
        .withUnsafeBufferPointer {
          try LSAppImporter(timeZone: .utc, skipBadRows: false, limit: 50).read($0, file: "f.tsv")
        }
    }
    #expect(lsapp.first?.hasSuffix(cr) == true, "\(lsapp)")
  }

  // MARK: 3. Local times moved out of range by their zone

  @Test func aNaiveTimeTheZoneMovesBefore1970IsRefusedAsAnExplicitOffsetIs() throws {
    let kolkata = try #require(ZoneRules(identifier: "Asia/Kolkata"))
    let before = "the instant is before 1970-01-01T00:00:00Z, the earliest supported"
    #expect(donations("timestamp,kind\n1970-01-01 00:00:00,News\n", zone: kolkata) == ["2:1: timestamp: \(before)"])
    #expect(donations("timestamp,kind\n1970-01-01T00:00:00+05:30,News\n") == ["2:1: timestamp: \(before)"])
    #expect(
      donations("{\"timestamp\":\"1970-01-01 00:00\",\"kind\":\"News\"}\n", zone: kolkata, file: "d.jsonl")
        == ["1:15: timestamp: \(before)"])
    let visits = messages {
      _ = try VisitLog.read(bytes: Array("timestamp\n1970-01-01 04:00\n".utf8), file: "v.csv", zone: kolkata)
    }
    #expect(visits == ["2:1: timestamp: \(before)"])
    let honolulu = try #require(ZoneRules(identifier: "Pacific/Honolulu"))
    #expect(
      donations("timestamp,kind\n2100-12-31 23:00,News\n", zone: honolulu)
        == ["2:1: timestamp: the instant is at or after 2101-01-01T00:00:00Z, the end of the supported range"])
    #expect(honolulu.checkedInstant(.local(milliseconds: 0)) == .success(Instant(milliseconds: 36_000_000)))
  }

  // MARK: 4. Stacks

  @Test func anOversizedStackIsReportedOnceNotOncePerRepeatedId() {
    let instances = Array(repeating: "{\"id\":\"w\",\"kind\":\"W\"}", count: 11).joined(separator: ",")
    let got = messages { _ = try StackSpec.read(bytes: Array("{\"instances\":[\(instances)]}".utf8), file: "s.json") }
    #expect(got == ["1:14: instances: a stack holds at most 10 widgets, found 11"])
    let twice = messages {
      _ = try StackSpec.read(
        bytes: Array("{\"instances\":[{\"id\":\"w\",\"kind\":\"W\"},{\"id\":\"w\",\"kind\":\"V\"}]}".utf8), file: "s.json")
    }
    #expect(twice == ["1:43: instances[1].id: duplicate instance id \"w\""])
  }

  @Test func stackAllRefusesAPersonWithMoreThanTenKinds() throws {
    let rows = (0..<11).map { "2026-03-02T08:\(10 + $0):00Z,ana,K\($0)" }.joined(separator: "\n")
    let log = try DonationLog.read(bytes: Array("timestamp,user,kind\n\(rows)\n".utf8), file: "d.csv")
    do {
      _ = try ReplayPlan(log: log, options: ReplayOptions())
      Issue.record("a stack of 11 kinds was accepted")
    } catch let error as ReplayError {
      #expect(error.description.hasPrefix("--stack all: person 'ana' donates 11 kinds, more than the 10 widgets"))
    }
    let ten = try DonationLog.read(
      bytes: Array(("timestamp,user,kind\n" + rows.split(separator: "\n").dropLast().joined(separator: "\n") + "\n").utf8),
      file: "d.csv")
    _ = try ReplayPlan(log: ten, options: ReplayOptions())
  }

  // MARK: 9. Smaller ones

  @Test(.timeLimit(.minutes(1))) func aFIFOWithNoWriterIsRefusedWithoutBlocking() throws {
    let path = TestFolders.root.appendingPathComponent("fifo-\(UUID().uuidString)").path
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    #expect(throws: InputFileError.self) { _ = try FileIO.readBytes(path) }
    do { _ = try FileIO.readBytes(path) } catch let error as InputFileError {
      #expect(error.reason == "is a FIFO (named pipe), not a regular file")
    }
    do { _ = try FileIO.readBytes("/dev/null") } catch let error as InputFileError {
      #expect(error.reason == "is a device, not a regular file")
    }
  }

  @Test func aSymbolicLinkLoopIsNamedAsSuch() throws {
    let folder = try TestFolders.fresh("loop").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(symlink("\(folder)/b", "\(folder)/a") == 0)
    #expect(symlink("\(folder)/a", "\(folder)/b") == 0)
    do {
      _ = try FileIO.readBytes("\(folder)/a")
      Issue.record("read a link loop")
    } catch let error as InputFileError {
      #expect(error.reason.hasPrefix("too many levels of symbolic links"))
    }
    do { _ = try FileIO.readBytes("\(folder)/missing") } catch let error as InputFileError {
      #expect(error.reason == "no such file")
    }
  }

  @Test func utcOffsetsAreNotTimeZones() {
    for spelling in ["GMT+05:30", "UTC+3", "utc-2", "UT+1", "GMT+0"] {
      #expect(ZoneRules(identifier: spelling) == nil, "\(spelling)")
    }
    for name in ["UTC", "GMT", "Etc/GMT-3", "Asia/Kolkata", "Europe/Berlin"] {
      #expect(ZoneRules(identifier: name) != nil, "\(name)")
    }
  }

  @Test func escapedNULsAreRefusedAsRawNULsAre() {
    #expect(
      donations("timestamp,kind,parameters\n2026-03-02T08:00:00Z,News,a=%00\n")
        == ["2:29: parameters: '%00' (a NUL byte) in a parameter"])
    #expect(
      donations("{\"timestamp\":\"2026-03-02T08:00:00Z\",\"kind\":\"a\\u0000\"}\n", file: "d.jsonl")
        == ["1:46: NUL character (\\u0000) in a string"])
  }

  @Test func controlCharactersFromInputAreEscapedInMessages() {
    let list = DiagnosticList([
      Diagnostic(file: "d\u{1B}.csv", line: 1, column: 1, message: "found 'ti\u{1B}]0;x\u{07}me\r\n'")
    ])
    #expect(list.description == "d\\u{1B}.csv:1:1: found 'ti\\u{1B}]0;x\\u{07}me\\u{0D}\\u{0A}'")
    #expect(InputFileError(path: "a\u{9B}b", reason: "no such file").description == "a\\u{9B}b: cannot read: no such file")
    #expect(TerminalText.escapingControls("plain é\ttab") == "plain é\ttab")
  }

  @Test func aFileThatIsNotTheFormatIsNotEchoed() {
    let got = donations("root:x:0:0:root:/root:/bin/bash\nsecret\n")
    #expect(got.count == 2)
    #expect(got.allSatisfy { !$0.contains("root") }, "\(got)")
    #expect(
      got.first
        == "1:1: missing required column 'timestamp' (the first line names none of the columns of this format, so it is not shown)")
    // A header that is the format's, misspelt, is still listed.
    #expect(
      donations("timestamp,knd\n").first == "1:1: missing required column 'kind' (columns found: 'timestamp', 'knd')")
  }
}
