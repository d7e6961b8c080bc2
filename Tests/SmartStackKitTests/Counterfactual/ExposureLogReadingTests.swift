import Foundation
import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// The exposure-log reader takes back what the writer wrote, accepts a hand-written log
/// with only the required columns, and refuses bad logs at `FILE:LINE:COLUMN`.
@Suite("Exposure logs are read back or refused where they are wrong")
struct ExposureLogReadingTests {
  static let header = "logging_strategy,person,time,candidates,shown,propensity,reward,hit\n"

  static func read(_ text: String) throws -> ExposureLog {
    try ExposureLog.read(bytes: Array(text.utf8), file: "f.csv")
  }

  static func problems(_ text: String) -> String {
    do {
      _ = try read(text)
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test func whatTheWriterWritesIsReadBackUnchanged() throws {
    let log = OffPolicyEstimatorTests.log()
    #expect(try Self.read(log.csvText()) == log)
  }

  @Test func aHandWrittenLogNeedsOnlyTheRequiredColumns() throws {
    let log = try Self.read(Self.header + "app,ann,2026-03-02T08:00:00Z,a;b,b,0.5,1,1\n")
    #expect(log.loggingStrategy == "app")
    #expect(log.exposures == [
      Exposure(
        person: "ann", time: OffPolicyEstimatorTests.monday, candidates: ["a", "b"], shown: "b", propensity: 0.5,
        reward: true, hit: true)
    ])
  }

  @Test func aPropensityOfZeroIsRefusedAtItsField() {
    // Line 3, the propensity field at column 32.
    let text = Self.header + "x,p,2026-03-02T08:00:00Z,a;b,a,0.5,1,1\nx,p,2026-03-02T08:01:00Z,a;b,a,0,1,1\n"
    #expect(Self.problems(text).contains("f.csv:3:32: propensity 0"))
  }

  @Test func aMissingColumnIsRefusedAtTheHeader() {
    let text = "logging_strategy,person,time,candidates,shown,reward,hit\nx,p,2026-03-02T08:00:00Z,a,a,1,1\n"
    #expect(Self.problems(text).contains("f.csv:1:1: missing required column 'propensity'"))
  }

  @Test func otherMistakesAreNamedWhereTheyAre() {
    let p = Self.problems(
      Self.header + "x,p,2026-03-02T07:00:00Z,a;b,a,0.5,1,1\n"
        + "x,p,2026-03-02T08:00:00,a;b,a,0.5,1,1\n" + "x,p,2026-03-02T09:00:00Z,a;b,c,0.5,1,1\n"
        + "x,p,2026-03-02T10:00:00Z,a;b,a,0.5,2,1\n" + "y,p,2026-03-02T11:00:00Z,a;b,a,0.5,1,1\n"
        + "x,p,2026-03-02T12:00:00Z,a=0.2;b=0.3,a,0.2,1,1\n")
    #expect(p.contains("f.csv:3:5: time '2026-03-02T08:00:00' has no zone"))
    #expect(p.contains("f.csv:4:30: shown 'c' is not among the candidates"))
    #expect(p.contains("f.csv:5:36: reward '2' must be 0 or 1"))
    #expect(p.contains("f.csv:6:1: logging strategy 'y' differs"))
    #expect(p.contains("f.csv:7:26: the candidates' probabilities sum to 0.5"))
  }
}
