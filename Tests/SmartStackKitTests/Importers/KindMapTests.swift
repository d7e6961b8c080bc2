import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("Kind map: intent class wins over bundle id, unmatched ids kept and counted")
struct KindMapTests {
  private let log = DonationLog([
    Donation(timestamp: Instant(milliseconds: 1), kind: "com.example.coffee", intent: "OrderCoffeeIntent"),
    Donation(timestamp: Instant(milliseconds: 2), kind: "com.example.coffee"),
    Donation(timestamp: Instant(milliseconds: 3), kind: "com.example.chat", intent: "INSendMessageIntent"),
    Donation(timestamp: Instant(milliseconds: 4), kind: "com.example.other"),
    Donation(timestamp: Instant(milliseconds: 5), kind: "com.example.other"),
  ])

  @Test("matched by intent class first, then by bundle id; others keep their id")
  func apply() throws {
    let map = try KindMap.read(
      bytes: Array("id,kind\ncom.example.coffee,Coffee\nOrderCoffeeIntent,Orders\nINSendMessageIntent,Messages\n".utf8),
      file: "kinds.csv")
    var result = ImportResult(
      donations: log, visits: VisitLog(file: "v", users: [], times: []), counts: ImportCounts(),
      skippedRows: DiagnosticList([]))
    result.donationOffsets = [1, 2, 3, 4, 5]
    let mapped = map.apply(to: result)
    #expect(
      mapped.donations.donations.map(\.kind)
        == ["Orders", "Coffee", "Messages", "com.example.other", "com.example.other"])
    #expect(mapped.donationOffsets == [1, 2, 3, 4, 5])
    #expect(mapped.counts.notes == [NamedCount("mapped donations", 3), NamedCount("unmapped ids", 1)])
    #expect(mapped.counts.apps == 4)
  }

  @Test("problems are located as FILE:LINE:COLUMN")
  func badFile() {
    do {
      _ = try KindMap.read(bytes: Array("id,kind\na,A\n,B\na,C\nc,\n".utf8), file: "kinds.csv")
      Issue.record("a bad map was read")
    } catch let list as DiagnosticList {
      #expect(
        list.diagnostics.map(\.description) == [
          "kinds.csv:3:1: id is empty",
          "kinds.csv:4:1: id 'a' is mapped again (first on line 2)",
          "kinds.csv:5:3: kind is empty",
        ])
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(throws: DiagnosticList.self) {
      try KindMap.read(bytes: Array("bundle,widget\na,B\n".utf8), file: "kinds.csv")
    }
  }
}
