import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@_spi(Fixtures) @testable import SmartStackData

/// The `(done, total)` reports an importer made, in order (`ImportProgress`).
private final class Reports: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [(done: Int, total: Int)] = []

  var progress: ImportProgress {
    ImportProgress { done, total in
      self.lock.lock()
      self.list.append((done, total))
      self.lock.unlock()
    }
  }

  var all: [(done: Int, total: Int)] {
    lock.lock()
    defer { lock.unlock() }
    return list
  }

  /// The rules every importer keeps: one total; `done` never decreasing and never beyond
  /// it; the first report before any row, the last `total` of `total`.
  func expectWellFormed(total: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    let all = self.all
    #expect(all.count >= 2, "\(all)", sourceLocation: sourceLocation)
    #expect(all.allSatisfy { $0.total == total }, "\(all)", sourceLocation: sourceLocation)
    #expect(zip(all, all.dropFirst()).allSatisfy { $0.done <= $1.done }, "\(all)", sourceLocation: sourceLocation)
    #expect(all.allSatisfy { $0.done <= total }, sourceLocation: sourceLocation)
    #expect(all.first.map { $0.done < total || total == 0 } == true, "\(all)", sourceLocation: sourceLocation)
    #expect(all.last?.done == total, "\(all)", sourceLocation: sourceLocation)
  }
}

/// Importers tell their progress through `ImportProgress` (issue 29 item 13): in bytes of
/// text, bytes of SEGB files, or database rows, at most once per `ImportProgress.stride`
/// rows, and the same result as without it.
@Suite("importers report their progress")
struct ImportProgressTests {
  /// An LSApp text of `rows` Opened rows (one session each) after the header.
  static func lsapp(rows: Int) -> [UInt8] {
    var text = "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n"
    for i in 0..<rows {
      text += "\(i % 7)\t\(i)\t2018-01-16 06:\(NumberFormat.format(i / 60 % 60, minimumDigits: 2)):"
        + "\(NumberFormat.format(i % 60, minimumDigits: 2))\tGmail\tOpened\n"
    }
    return Array(text.utf8)
  }

  /// Reads `text` with a progress and without (`read`), and checks the reports (`count`
  /// of them, in bytes of `text`) and that both give the same logs.
  func checkText(
    _ text: [UInt8], count: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ read: (UnsafeBufferPointer<UInt8>, ImportProgress?) throws -> ImportResult
  ) throws {
    let reports = Reports()
    let shown = try text.withUnsafeBufferPointer { try read($0, reports.progress) }
    let plain = try text.withUnsafeBufferPointer { try read($0, nil) }
    reports.expectWellFormed(total: text.count, sourceLocation: sourceLocation)
    #expect(reports.all.count == count, sourceLocation: sourceLocation)
    #expect(shown.donationLogText(jsonLines: false) == plain.donationLogText(jsonLines: false))
    #expect(shown.visitLogText() == plain.visitLogText())
  }

  @Test func lsappReportsBytesOfTextEveryStrideRowsAndTheSameResult() throws {
    // After the header, at lines 4096 and 8192, and at the end.
    try checkText(Self.lsapp(rows: 10_000), count: 4) { text, progress in
      var importer = LSAppImporter()
      importer.progress = progress
      return try importer.read(text, file: "a.tsv")
    }
  }

  @Test func appEventsReportBytesOfText() throws {
    var text = "timestamp,user,app,event\n"
    for i in 0..<5_000 { text += "2026-03-02T07:\(NumberFormat.format(i / 60 % 60, minimumDigits: 2)):00Z,u,app,open\n" }
    // After the header, at row 4096, and at the end.
    try checkText(Array(text.utf8), count: 3) { text, progress in
      var importer = AppEventsImporter()
      importer.progress = progress
      return try importer.read(text, file: "a.csv")
    }
  }

  @Test func knowledgeCReportsTheRowsOfItsStreams() throws {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database(
      "knowledgeC.db", in: folder, script: DeviceFixtures.script("knowledgeC-ios.sql"))
    let reports = Reports()
    var importer = KnowledgeCImporter()
    importer.progress = reports.progress
    let shown = try importer.read(path: path)
    let plain = try KnowledgeCImporter().read(path: path)
    // /app/intents and /device/isLocked rows: what the import reads, not all of ZOBJECT.
    reports.expectWellFormed(total: shown.counts.events.map(\.count).reduce(0, +))
    #expect(shown.donationLogText(jsonLines: false) == plain.donationLogText(jsonLines: false))
  }

  @Test func powerLogReportsLockApplicationAndWidgetRows() throws {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database("pl.PLSQL", in: folder, script: DeviceFixtures.script("powerlog.sql"))
    let reports = Reports()
    var importer = PowerLogImporter()
    importer.progress = reports.progress
    let shown = try importer.read(path: path)
    let plain = try PowerLogImporter().read(path: path)
    reports.expectWellFormed(total: shown.result.counts.rows + shown.widgets.count)
    #expect(shown.widgets.csvText() == plain.widgets.csvText())
    #expect(shown.result.donationLogText(jsonLines: false) == plain.result.donationLogText(jsonLines: false))
  }

  @Test func biomeReportsBytesOfItsFiles() throws {
    let files = try BiomeStreamFiles(path: BiomeFixtures.folder.path)
    let size = files.files.reduce(0) { $0 + ((try? Data(contentsOf: URL(fileURLWithPath: $1.path)))?.count ?? 0) }
    let reports = Reports()
    var importer = BiomeImporter()
    importer.progress = reports.progress
    let shown = try importer.read(files, name: "biome")
    let plain = try BiomeImporter().read(files, name: "biome")
    reports.expectWellFormed(total: size)
    #expect(shown.result.donationLogText(jsonLines: false) == plain.result.donationLogText(jsonLines: false))
  }
}
