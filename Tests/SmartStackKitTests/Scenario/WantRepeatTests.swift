import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackWorld

/// A one-person scenario with two apps wanted equally at every hour, and `extra` persona
/// keys (JSON members, e.g. `"repeat": {…}, `).
private func scenario(_ extra: String) -> String {
  """
  {"start": "2026-03-02", "days": 7, "seed": 5,
   "people": [{"name": "p", "visitsPerDay": 60, \(extra)"wantProbability": 0.5,
     "routine": {"weekday": [{"hours": "0-24", "wants": {"a": 1, "b": 1}}]}}],
   "stack": {"instances": [{"kind": "A"}, {"kind": "B"}]},
   "apps": [{"id": "a", "kind": "A"}, {"id": "b", "kind": "B"}]}
  """
}

private func person(_ extra: String) throws -> SimulatedPerson {
  try Scenario.read(bytes: Array(scenario(extra).utf8), file: "s.json").person(0, replicate: 0, seed: 5)
}

@Suite("Repeated wants")
struct WantRepeatTests {
  /// Probability 0 draws exactly the wants of a persona without `repeat`.
  @Test func probabilityZeroChangesNoWant() throws {
    let without = try person("")
    let with = try person("\"repeat\": {\"probability\": 0, \"minutes\": 600}, ")
    #expect(with.visitTimes == without.visitTimes)
    #expect(with.wantApp == without.wantApp)
  }

  /// Probability 1 makes every routine want within the window the previous want's app:
  /// with a day-long window, each day's first want decides the day.
  @Test func probabilityOneRepeatsThePreviousWant() throws {
    let p = try person("\"repeat\": {\"probability\": 1, \"minutes\": 1440}, ")
    var previous: (time: Int64, app: Int32)? = nil
    var repeats = 0
    for (time, app) in zip(p.visitTimes, p.wantApp) where app >= 0 {
      if let previous, time - previous.time < 1_440 * 60_000 {
        #expect(app == previous.app)
        repeats += 1
      }
      previous = (time, app)
    }
    #expect(repeats > 100)
    // Without repeats the two apps alternate often.
    let free = try person("")
    let wanted = free.wantApp.filter { $0 >= 0 }
    #expect(zip(wanted, wanted.dropFirst()).contains { $0 != $1 })
  }

  /// A probability outside 0...1 is refused at its value.
  @Test func aProbabilityAboveOneIsRefusedWhereItIs() {
    let error = #expect(throws: DiagnosticList.self) {
      try person("\"repeat\": {\"probability\": 2}, ")
    }
    #expect(error?.description.contains("s.json:2:") == true)
    #expect(error?.description.contains("repeat.probability") == true)
  }
}
