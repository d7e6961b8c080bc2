import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@_spi(Fixtures) @testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("PowerLog clock: the latest offset at or before a time, the earliest before all")
struct PowerLogClockTests {
  @Test("before, at, between and after the offset rows")
  func correction() {
    let clock = PowerLogClock([(2000, 40), (1000, 100), (3000, -5)])
    #expect(clock.offset(at: 500) == 100)
    #expect(clock.isBeforeFirst(500))
    #expect(clock.offset(at: 1000) == 100)
    #expect(clock.offset(at: 1999.9) == 100)
    #expect(clock.offset(at: 2000) == 40)
    #expect(clock.offset(at: 2500) == 40)
    #expect(clock.offset(at: 1e9) == -5)
    #expect(!clock.isBeforeFirst(1000))
    #expect(PowerLogClock([]).offset(at: 123) == 0)
    #expect(clock.milliseconds(raw: 2000.25) == 2_040_250)
  }
}

@Suite("PowerLog import: unlocks are visits, launches are donations, widget rows kept")
struct PowerLogImporterTests {
  private func importing(_ script: String) throws -> PowerLogImporter.Output {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database("CurrentPowerlog.PLSQL", in: folder, script: script)
    return try PowerLogImporter().read(path: path)
  }

  @Test("visits and launches with the clock corrected")
  func logs() throws {
    let output = try importing(DeviceFixtures.script("powerlog.sql"))
    let result = output.result
    #expect(
      result.visits.times == [
        DeviceFixtures.ms("2026-03-02T07:53:20Z"), DeviceFixtures.ms("2026-03-02T08:29:00.500Z"),
      ])
    #expect(
      result.donationLogText(jsonLines: false) == """
        timestamp,user,kind,intent,parameters
        2026-03-02T08:00:10Z,default,com.example.coffee,,
        2026-03-02T08:30:40Z,default,com.example.coffee,,
        2026-03-02T08:30:50Z,default,com.example.chat,,

        """)
    let c = result.counts
    #expect(c.rows == 10 && c.counted == 4 && c.dropped("no_app") == 1)
    #expect(c.rows == c.donations + c.visits + c.counted + c.dropped.reduce(0) { $0 + $1.count })
    #expect(c.notes.first { $0.name == "rows before the first offset" }?.count == 1)
  }

  @Test("the widget statistics file has the rows of tables with isInStack")
  func widgets() throws {
    let output = try importing(DeviceFixtures.script("powerlog.sql"))
    #expect(
      output.widgets.csvText() == """
        timestamp,table,fields
        2026-03-02T08:32:20Z,PLTestAgent_Aggregate_Widgets,isInStack=1;onScreenSeconds=12.5;widgetKind=CoffeeWidget;widgetSize=2

        """)
  }

  @Test("a database without PowerLog tables is refused")
  func notPowerLog() throws {
    #expect(throws: DatabaseError.self) { try importing("CREATE TABLE ZOBJECT (a);") }
  }
}
