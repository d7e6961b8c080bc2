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

@Suite("VisitSource and StackSource: the one parser of sessions:MINUTES and top:N")
struct SourceSpellingTests {
  @Test func visitSourcesReadTheirThreeForms() throws {
    #expect(try VisitSource.parse("donations") == .donations)
    #expect(try VisitSource.parse("sessions:30") == .sessions(gapMinutes: 30))
    #expect(try VisitSource.parse("sessions:0.5") == .sessions(gapMinutes: 0.5))
    #expect(try VisitSource.parse("sessions:527040") == .sessions(gapMinutes: 527_040))
    #expect(try VisitSource.parse("visits.csv") == .file("visits.csv"))
    #expect(try VisitSource.parse("Donations") == .file("Donations"))
  }

  /// Issue 29, item 16: `session:5` said "no such file" without naming `sessions:`.
  @Test(arguments: ["session:5", "Sessions:5", "sesions:5"])
  func aNearMissOfSessionsThatIsNoFileSuggestsTheSpelling(_ text: String) {
    #expect(
      throws: SourceSpellingError(
        form: "sessions:MINUTES",
        requirement: "its exact spelling (did you mean 'sessions:5'? no file '\(text)' exists either)",
        text: text)
    ) {
      try VisitSource.parse(text)
    }
  }

  @Test(arguments: [
    "sessions:0", "sessions:-3", "sessions:527040.5", "sessions:", "sessions:x",
    "sessions:nan", "sessions:inf", "sessions:1e300",
  ])
  func gapsOutside0To527040AreRefused(_ text: String) {
    #expect(
      throws: SourceSpellingError(
        form: "sessions:MINUTES",
        requirement: "a number of minutes in 0 < MINUTES <= 527040 (366 days)", text: text)
    ) {
      try VisitSource.parse(text)
    }
  }

  @Test func stackSourcesReadTheirThreeForms() throws {
    #expect(try StackSource.parse("all") == .all)
    #expect(try StackSource.parse("top:1") == .top(1))
    #expect(try StackSource.parse("top:1000") == .top(1000))
    #expect(try StackSource.parse("stack.json") == .file("stack.json"))
  }

  @Test(arguments: ["top:0", "top:-1", "top:1001", "top:", "top:3.5", "top:x", "top: 3"])
  func countsOutside1To1000AreRefused(_ text: String) {
    #expect(
      throws: SourceSpellingError(
        form: "top:N", requirement: "a whole number N in 1...1000", text: text)
    ) {
      try StackSource.parse(text)
    }
  }

  /// `spelled` is `parse`'s inverse: what the outline writes for a source reads back as
  /// the same choice.
  @Test(arguments: ["donations", "sessions:30", "sessions:0.5", "visits.csv"])
  func aVisitChoiceSpelledReadsBackTheSame(_ text: String) throws {
    let choice = try VisitSource.parse(text)
    #expect(choice.spelled(file: { $0 }) == text)
    #expect(try VisitSource.parse(choice.spelled(file: { $0 })) == choice)
  }

  @Test(arguments: ["all", "top:1", "top:1000", "stack.json"])
  func aStackChoiceSpelledReadsBackTheSame(_ text: String) throws {
    let choice = try StackSource.parse(text)
    #expect(choice.spelled(file: { $0 }) == text)
    #expect(try StackSource.parse(choice.spelled(file: { $0 })) == choice)
  }

  /// A config resolves the file against its folder: only the file changes.
  @Test func mapFileKeepsTheChoiceAndChangesOnlyTheFile() {
    let resolve = { (path: String) in ConfigPath(written: path, resolved: "/cfg/" + path) }
    #expect(VisitSource.sessions(gapMinutes: 5).mapFile(resolve) == .sessions(gapMinutes: 5))
    #expect(VisitSource.file("v.csv").mapFile(resolve) == .file(ConfigPath(written: "v.csv", resolved: "/cfg/v.csv")))
    #expect(StackSource.top(3).compactMapFile { _ in nil as ConfigPath? } == .top(3))
    #expect(StackSource.file("s.json").compactMapFile { _ in nil as ConfigPath? } == nil)
  }
}
