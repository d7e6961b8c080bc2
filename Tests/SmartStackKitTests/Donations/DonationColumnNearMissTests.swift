import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
import SmartStackTestSupport

/// The problems reading `text` as `file` gives, whole (`DonationLog.read`) and streamed
/// (`DonationStatistics.read`, `validate`'s path): the two must agree.
private func problems(_ text: String, file: String) -> [String] {
  let bytes = Array(text.utf8)
  let format: DonationLogFormat = file.hasSuffix(".csv") ? .csv : .jsonl
  func messages(_ body: () throws -> Void) -> [String] {
    do {
      try body()
      return []
    } catch let list as DiagnosticList {
      return list.diagnostics.map(\.description)
    } catch {
      return ["unexpected \(error)"]
    }
  }
  let whole = messages { _ = try DonationLog.read(bytes: bytes, file: file, format: format) }
  let streamed = messages {
    _ = try bytes.withUnsafeBufferPointer {
      try DonationStatistics.read(bytes: $0, file: file, format: format, timeZone: .utc)
    }
  }
  #expect(whole == streamed)
  return whole
}

@Suite("A near miss of a donation log column is an error; unrelated columns are ignored and listed")
struct DonationColumnNearMissTests {
  @Test(arguments: ["User", "userid", "user_id", "USER-ID", "usr", "users"])
  func aNearMissOfUserInTheCSVHeaderIsAnErrorAtItsCell(name: String) {
    let log = "timestamp,\(name),kind\n2026-03-02T08:00:00Z,ana,A\n"
    #expect(
      problems(log, file: "log.csv") == [
        "log.csv:1:11: unknown column '\(name)' (did you mean 'user'? column names are matched exactly and in lowercase, so its values would be ignored)"
      ])
  }

  @Test func theIssuesHeaderReportsUserAndParamsWithTheirColumns() {
    let log = "timestamp,User,kind,intent,params\n2026-03-02T08:00:00Z,ana,A,I,k=v\n"
    #expect(
      problems(log, file: "log.csv") == [
        "log.csv:1:11: unknown column 'User' (did you mean 'user'? column names are matched exactly and in lowercase, so its values would be ignored)",
        "log.csv:1:28: unknown column 'params' (did you mean 'parameters'? column names are matched exactly and in lowercase, so its values would be ignored)",
      ])
  }

  @Test func aNearMissOfAJSONLinesKeyIsAnErrorAtTheKeyOnEveryLine() {
    let log = """
      {"timestamp":"2026-03-02T08:00:00Z","usr":"ana","kind":"A"}
      {"timestamp":"2026-03-02T09:00:00Z","kind":"A","Params":{"k":"v"}}

      """
    #expect(
      problems(log, file: "log.jsonl") == [
        #"log.jsonl:1:37: unknown key "usr" (did you mean "user"? key names are matched exactly and in lowercase, so its values would be ignored)"#,
        #"log.jsonl:2:48: unknown key "Params" (did you mean "parameters"? key names are matched exactly and in lowercase, so its values would be ignored)"#,
      ])
  }

  @Test func aNearMissBesideTheRealColumnAndUnrelatedColumnsAreIgnored() throws {
    let csv = "timestamp,user,User,kind,device,note,\n2026-03-02T08:00:00Z,ana,x,A,phone,hi,\n"
    #expect(problems(csv, file: "log.csv") == [])
    let read = try Array(csv.utf8).withUnsafeBufferPointer {
      try DonationStatistics.read(bytes: $0, file: "log.csv", format: .csv, timeZone: .utc)
    }
    #expect(read.users == 1)
    let jsonl = #"{"timestamp":"2026-03-02T08:00:00Z","user":"ana","usr":"x","kind":"A","app_version":"1"}"#
    #expect(problems(jsonl + "\n", file: "log.jsonl") == [])
  }

  @Test func aNearMissOfARequiredColumnSaysWhichColumnWasMeant() {
    #expect(
      problems("time,kind\n2026-03-02T08:00:00Z,A\n", file: "log.csv") == [
        "log.csv:1:1: missing required column 'timestamp' (columns found: 'time', 'kind'); did you mean to name column 'time' 'timestamp'?; epoch times go in a column named 'timestamp_ms', 'epoch_ms', 'timestamp_s', 'epoch_s'"
      ])
  }

  @Test func validateListsTheColumnsItIgnored() throws {
    let folder = try TestFolders.fresh("near-miss")
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = folder.appendingPathComponent("log.csv").path
    try Data("timestamp,kind,device,note\n2026-03-02T08:00:00Z,A,phone,hi\n".utf8)
      .write(to: URL(fileURLWithPath: csv))
    #expect(try DonationStatistics.read(path: csv).ignoredColumns == ["device", "note"])
    let jsonl = folder.appendingPathComponent("log.jsonl").path
    try Data(
      """
      {"timestamp":"2026-03-02T08:00:00Z","kind":"A","b":1}
      {"timestamp":"2026-03-02T08:00:00Z","kind":"A","a":1,"b":2}

      """.utf8
    ).write(to: URL(fileURLWithPath: jsonl))
    #expect(try DonationStatistics.read(path: jsonl).ignoredColumns == ["b", "a"])
  }
}
