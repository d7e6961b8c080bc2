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

  /// The candidates column is cut as `split` cuts it by `Character`: ASCII text byte by
  /// byte, other text by grapheme (a `;` or `=` that a combining mark or a prepended mark
  /// joins is no separator). Fails when the byte cut is used on every text.
  @Test func theCandidatesColumnIsCutAsCharactersCutIt() {
    let alphabet = ["a", "b", ";", "=", "0.5", "\u{301}", "\u{600}", "é", "\r", "\n", " ", ""]
    var random = RelevanceTestRandom(seed: 31)
    for _ in 0..<5_000 {
      let text = (0..<random.below(9)).map { _ in alphabet[random.below(alphabet.count)] }.joined()
      let want = text.split(separator: ";", omittingEmptySubsequences: false).map { part in
        let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return [String(kv[0]), kv.count == 2 ? String(kv[1]) : "<none>"]
      }
      let got = RowReader.candidateParts(text).map { [String($0.id), $0.probability.map(String.init) ?? "<none>"] }
      #expect(got == want, "\(Array(text.unicodeScalars))")
    }
  }

  /// Row-level checks of the candidates column, each at the column's field.
  @Test func candidateListsAreCheckedWhereTheyAre() {
    let p = Self.problems(
      Self.header + "x,p,2026-03-02T07:00:00Z,a;b;a,a,0.5,1,1\n"
        + "x,p,2026-03-02T08:00:00Z,a=0.5;b=x,a,0.5,1,1\n" + "x,p,2026-03-02T09:00:00Z,a=1;b,a,1,1,1\n"
        + "x,p,2026-03-02T10:00:00Z,a;;b,a,0.5,1,1\n" + "x,p,2026-03-02T11:00:00Z,a=0.25;b=0.75,a,0.5,1,1\n"
        + "x,p,2026-03-02T12:00:00Z,a=1;b=0,b,1e-7,1,1\n")
    #expect(p.contains("f.csv:2:26: candidate 'a' is listed twice"))
    #expect(p.contains("f.csv:3:26: candidate probability 'x' of 'b' is not a number in [0, 1]"))
    #expect(p.contains("f.csv:4:26: candidates 'a=1;b': give a probability for every candidate (id=p) or for none"))
    #expect(p.contains("f.csv:5:26: candidates 'a;;b' has an empty id"))
    #expect(p.contains("f.csv:6:42: propensity 0.5 differs from the probability the candidates column states for 'a' (0.25)"))
    #expect(p.contains("f.csv:7:36: propensity 1e-7 is below the floor"))
  }

  /// The reader's column enumeration is the log's columns in their order (its cases are
  /// the names in camel case): a row's texts are read by its raw values.
  @Test func theReadersColumnsAreTheLogsColumnsInOrder() {
    #expect(ExposureColumn.allCases.map(\.rawValue) == Array(ExposureLog.columns.indices))
    let camel = ExposureColumn.allCases.map { column in
      "\(column)".reduce(into: "") { name, c in name += c.isUppercase ? "_" + c.lowercased() : String(c) }
    }
    #expect(camel == ExposureLog.columns)
  }
}

