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

@Suite("Diagnostics")
struct DiagnosticsTests {
  @Test func rendersFileLineColumnMessage() {
    let d = Diagnostic(file: "log.csv", line: 3, column: 7, message: "month 13 is out of range 1...12")
    #expect(d.description == "log.csv:3:7: month 13 is out of range 1...12")
  }

  @Test func collectorStopsAtItsLimitAndSaysSo() throws {
    var c = DiagnosticCollector(file: "f", limit: 2)
    c.report(line: 1, column: 1, "a")
    c.report(line: 2, column: 1, "b")
    #expect(c.isFull)
    c.report(line: 3, column: 1, "c")
    #expect(c.diagnostics.count == 2)
    #expect(c.truncated)
    let error = #expect(throws: DiagnosticList.self) { try c.throwIfAny() }
    #expect(error?.description.hasSuffix("(stopped after 2 problems; fix these and run again)") == true)
  }

  @Test func emptyCollectorDoesNotThrow() throws {
    try DiagnosticCollector(file: "f").throwIfAny()
  }
}
