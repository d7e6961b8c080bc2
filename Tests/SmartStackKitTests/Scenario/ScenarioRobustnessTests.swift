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

@Suite("Scenario robustness")
struct ScenarioRobustnessTests: ScenarioTesting {
  /// Reads `text`; a scenario that reads is also generated (person 0, two days). Returns
  /// false for an error other than a diagnostic list. Crashing fails the whole run.
  func survives(_ text: String) -> Bool {
    do {
      let scenario = try read(text)
      for p in [0, scenario.personCount - 1] {
        let person = scenario.person(p, replicate: 0, seed: 1, days: 2)
        if person.visitTimes.count != person.wantApp.count { return false }
      }
      return true
    } catch let list as DiagnosticList {
      return !list.diagnostics.isEmpty
        && list.diagnostics.allSatisfy { $0.line >= 1 && $0.column >= 1 }
    } catch {
      return false
    }
  }

  @Test func extremeNumbersAnywhereOnlyEverGiveDiagnosticsOrAWorld() {
    let extremes = [
      "0", "-1", "1e308", "-1e308", "0.0001", "1e-300", "99999999999", "2.5", "1440", "366", "24",
    ]
    for (f, fixture) in [ScenarioFixtures.commuter, ScenarioFixtures.sportsFan].enumerated() {
      let bytes = Array(fixture.utf8)
      // Start offsets of number literals outside strings.
      var numbers: [Range<Int>] = []
      var inString = false
      var i = 0
      while i < bytes.count {
        let b = bytes[i]
        if b == UInt8(ascii: "\"") { inString.toggle() }
        if !inString && (b == UInt8(ascii: "-") || (b >= 48 && b <= 57)) {
          var j = i + 1
          while j < bytes.count, bytes[j] == UInt8(ascii: ".") || (bytes[j] >= 48 && bytes[j] <= 57)
          { j += 1 }
          numbers.append(i..<j)
          i = j
          continue
        }
        i += 1
      }
      for (n, range) in numbers.enumerated() {
        for extreme in extremes {
          var mutated = bytes
          mutated.replaceSubrange(range, with: Array(extreme.utf8))
          let text = String(decoding: mutated, as: UTF8.self)
          #expect(survives(text), "fixture \(f), number \(n) set to \(extreme)")
        }
      }
    }
  }

  @Test func damagedFilesOnlyEverGiveDiagnostics() {
    var g = SplitMix64(seed: 77)
    for seed in 0..<300 {
      var bytes = Array(
        (seed % 2 == 0 ? ScenarioFixtures.commuter : ScenarioFixtures.sportsFan).utf8)
      for _ in 0..<(1 + g.nextInt(below: 4)) {
        let at = g.nextInt(below: bytes.count)
        switch g.nextInt(below: 3) {
        case 0: bytes.remove(at: at)
        case 1: bytes[at] = Array(#"{}[]",:0-9a"#.utf8)[g.nextInt(below: 11)]
        default: bytes.insert(Array(#"{}[]",:0-9a"#.utf8)[g.nextInt(below: 11)], at: at)
        }
      }
      #expect(survives(String(decoding: bytes, as: UTF8.self)), "damage seed \(seed)")
    }
  }
}
