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

@Suite("Bench reference workload")
struct BenchWorkloadTests {
  let small = BenchWorkload(people: 4, days: 3, ingestRows: 500, seed: 7)

  func same(_ a: ReplayPlan.Person, _ b: ReplayPlan.Person) -> Bool {
    a.name == b.name && a.instances == b.instances && a.alwaysAvailable == b.alwaysAvailable
      && a.donationTimes == b.donationTimes && a.donationKinds == b.donationKinds
      && a.matchStart == b.matchStart && a.matches == b.matches && a.visitTimes == b.visitTimes
      && a.visitTarget == b.visitTarget && a.entryInstance == b.entryInstance && a.entries == b.entries
  }

  @Test func aPersonDependsOnlyOnSeedAndIndex() {
    #expect(same(small.person(2), small.person(2)))
    #expect(!same(small.person(2), small.person(3)))
    var other = small
    other.seed = 8
    #expect(!same(small.person(2), other.person(2)))
    // More people or days elsewhere do not change person 2's first days' stack.
    var bigger = small
    bigger.people = 100
    #expect(same(small.person(2), bigger.person(2)))
  }

  @Test func aReusedGeneratorGivesTheSamePeopleAsFreshOnes() {
    var generator = BenchWorkload.PersonGenerator(small)
    var person = ReplayPlan.Person(name: "", instances: [], alwaysAvailable: false)
    for p in [3, 0, 2, 2, 1] {
      generator.fill(&person, index: p)
      #expect(same(person, small.person(p)), "person \(p)")
    }
  }

  /// The documented shape, checked on many people: counts per day within their ranges,
  /// everything in time order, valid matches and targets computed as replay does.
  @Test func peopleHaveTheDocumentedShape() {
    let w = BenchWorkload(people: 30, days: 5, seed: 3)
    var scoresAtOrBelowZero = 0
    var nilEntries = 0
    var outsideStack = 0
    var hits = 0
    for p in 0..<w.people {
      let person = w.person(p)
      let label = "person \(p)"
      #expect(person.instances.count == 10, "\(label)")
      #expect(Set(person.instances.map(\.kind)).count == 10, "\(label)")
      #expect(person.instances.allSatisfy { BenchWorkload.kinds.contains($0.kind) && $0.id == $0.kind }, "\(label)")
      #expect(person.alwaysAvailable, "\(label)")
      // 80...100 visits and 25...35 donations a day; 2...4 entries per instance and day.
      // The ranges are typed: as literals inside #expect they took 8 s to type-check.
      let visitRange: ClosedRange<Int> = (5 * 80)...(5 * 100)
      let donationRange: ClosedRange<Int> = (5 * 25)...(5 * 35)
      let entriesRange: ClosedRange<Int> = (5 * 10 * 2)...(5 * 10 * 4)
      #expect(visitRange.contains(person.visitTimes.count), "\(label)")
      #expect(donationRange.contains(person.donationTimes.count), "\(label)")
      #expect(entriesRange.contains(person.entries.count), "\(label)")
      let start = BenchWorkload.start
      let end = start + 5 * 86_400_000
      #expect(person.visitTimes == person.visitTimes.sorted(), "\(label)")
      #expect(person.visitTimes.allSatisfy { $0 >= start && $0 < end }, "\(label)")
      #expect(person.donationTimes == person.donationTimes.sorted(), "\(label)")
      #expect(person.donationTimes.allSatisfy { $0 >= start && $0 < end + 120_001 }, "\(label)")
      let dates = person.entries.map(\.date.milliseconds)
      #expect(dates == dates.sorted(), "\(label)")
      #expect(person.matchStart.count == person.donationTimes.count + 1, "\(label)")
      for d in person.donationTimes.indices {
        let matched = person.matched(d)
        let kind = BenchWorkload.kinds[Int(person.donationKinds[d])]
        let position = person.instances.firstIndex { $0.kind == kind }
        #expect(Array(matched) == (position.map { [Int32($0)] } ?? []), "\(label) donation \(d)")
        if position == nil { outsideStack += 1 }
      }
      // Targets: the first donation at or after the visit within 300 s, by brute force.
      for (v, time) in person.visitTimes.enumerated() {
        let first = person.donationTimes.firstIndex { $0 >= time }
        let expected = first.flatMap { person.donationTimes[$0] - time <= 300_000 ? Int32($0) : nil } ?? -1
        #expect(person.visitTarget[v] == expected, "\(label) visit \(v)")
        if expected >= 0 { hits += 1 }
      }
      for entry in person.entries {
        guard let r = entry.relevance else {
          nilEntries += 1
          continue
        }
        if r.score <= 0 { scoresAtOrBelowZero += 1 }
        #expect([0, 900_000, 3_600_000, 7_200_000, 14_400_000].contains(r.durationMilliseconds))
        #expect(r.score >= -0.5 && r.score <= 1)
      }
    }
    // Some of everything the engine has to handle.
    #expect(scoresAtOrBelowZero > 0)
    #expect(nilEntries > 0)
    #expect(outsideStack > 0)
    #expect(hits > 0)
  }

  @Test func relevanceOffMeansNoEntries() {
    var w = small
    w.relevance = false
    #expect(w.person(1).entries.isEmpty)
    #expect(w.person(1).visitTimes == small.person(1).visitTimes)
  }

  /// The CSV and the JSON Lines form hold the same donations, every row reads back.
  @Test func ingestLogsReadBackAsTheSameLog() throws {
    let csv = small.ingestLog(.csv)
    let jsonl = small.ingestLog(.jsonl)
    let fromCSV = try DonationLog.read(bytes: csv, file: "bench.csv", format: .csv)
    let fromJSONL = try DonationLog.read(bytes: jsonl, file: "bench.jsonl", format: .jsonl)
    #expect(fromCSV.count == 500)
    #expect(fromCSV == fromJSONL)
    // The generator's own variety: plain launches, quoted and non-ASCII parameters.
    let text = String(decoding: csv, as: UTF8.self)
    #expect(text.hasPrefix("timestamp,user,kind,intent,parameters\n2026-03-02T00:00:"))
    #expect(text.contains("\"city=Paris, France\""))
    #expect(fromCSV.donations.contains { $0.parameters.contains(Parameter("city", "São Paulo")) })
    #expect(fromCSV.donations.contains { $0.intent == nil && $0.parameters.isEmpty })
    #expect(small.ingestLog(.csv) == csv)
  }

  @Test func invalidWorkloadsAreExplained() {
    #expect(BenchWorkload.standard.problems.isEmpty)
    #expect(BenchWorkload.quick.problems.isEmpty)
    var w = BenchWorkload.standard
    w.people = 0
    w.stackSize = 13
    #expect(w.problems == ["people must be within 1...10000000", "stack size must be within 1...12"])
  }
}
