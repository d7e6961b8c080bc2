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

/// Timelines of one person (`"user"`), the file writer, and how replay applies them
/// (part of the "Timeline file" suite, whose `read` and `problems` they use).
extension TimelineFileTests {
  @Test func aUserMakesATimelineOnePersonsAndTheSameIdMayRepeatPerPerson() throws {
    let file = try read(
      """
      {"instances": [
        {"id": "news", "entries": [{"date": "2026-01-05T01:00:00Z", "relevance": {"score": 1}}]},
        {"id": "card", "user": "ann", "entries": [{"date": "2026-01-05T02:00:00Z", "relevance": {"score": 2}}]},
        {"id": "card", "user": "bob", "entries": [{"date": "2026-01-05T03:00:00Z"}]},
        {"id": "game", "user": null, "entries": []}
      ]}
      """)
    #expect(file.instances.map(\.user) == [nil, "ann", "bob", nil])
    #expect(file.hasPersonalTimelines)
    let ann = file.timelines(ofUser: "ann")
    #expect(ann.instances.map(\.id) == ["news", "card", "game"])
    #expect(ann.instances.allSatisfy { $0.user == nil })
    #expect(ann.instances[1].entries == [entry(2, 2)])
    #expect(file.timelines(ofUser: "carl").instances.map(\.id) == ["news", "game"])
    #expect(!ann.hasPersonalTimelines)
  }

  @Test func anIdIsEveryPersonsOrPerPersonAndUniquePerUser() {
    let text = """
      {"instances": [
        {"id": "a", "entries": []},
        {"id": "a", "user": "ann", "entries": []},
        {"id": "b", "user": "ann", "entries": []},
        {"id": "b", "entries": []},
        {"id": "b", "user": "ann", "entries": []},
        {"id": "c", "user": "", "entries": []},
        {"id": "d", "user": 7, "entries": []}
      ]}
      """
    #expect(
      problems(text) == [
        "t.json:3:10: instances[1].id: instance id \"a\" is every person's in instances[0] and one person's (\"user\") in instances[1]: give it to every person or per person, not both",
        "t.json:5:10: instances[3].id: instance id \"b\" is every person's in instances[3] and one person's (\"user\") in instances[2]: give it to every person or per person, not both",
        "t.json:6:10: instances[4].id: duplicate instance id \"b\" for user \"ann\" (first used by instances[2])",
        "t.json:7:23: instances[5].user: expected a non-empty user (or leave \"user\" out for every person's timeline)",
        "t.json:8:23: instances[6].user: expected a string, found 7",
      ])
  }

  /// Property: `jsonText` reads back to the same file, for random instances, users, kinds
  /// with characters that need escaping, dates with and without milliseconds, nil
  /// relevance, and scores and durations of every magnitude the reader accepts.
  @Test func theWrittenFileReadsBackToTheSameValue() throws {
    for seed in 0..<60 {
      var random = RelevanceTestRandom(seed: UInt64(seed))
      var instances: [TimelineFile.Instance] = []
      let names = ["a", "b\"q", "c\\d", "é", "line\nbreak"]
      for n in 0..<random.below(5) {
        var entries: [RelevanceEntry] = []
        for _ in 0..<random.below(6) {
          let date = Instant(milliseconds: baseMs + Int64(random.below(100_000_000)) * (random.below(2) == 0 ? 1000 : 1))
          var relevance: Relevance? = nil
          if random.below(3) > 0 {
            let scores = [0, 1, -2.5, 0.1, 1e-7, 3.4e38, Double(random.next() >> 11) * 0x1p-40]
            let durations: [Int64] = [0, 1, 999, 3_600_000, 31_622_400_000]
            relevance = Relevance(
              score: scores[random.below(scores.count)], durationMilliseconds: durations[random.below(durations.count)])
          }
          entries.append(RelevanceEntry(date: date, relevance: relevance))
        }
        let user = random.below(2) == 0 ? nil : names[random.below(names.count)]
        instances.append(
          TimelineFile.Instance(
            id: "i\(n)-\(names[random.below(names.count)])", kind: names[random.below(names.count)], entries: entries,
            user: user))
      }
      let file = TimelineFile(instances: instances)
      let text = file.jsonText()
      #expect(try read(text) == file, "seed \(seed):\n\(text)")
    }
    #expect(TimelineFile(instances: []).jsonText() == "{\"instances\": []}\n")
  }

  /// Replay gives each person every person's entries merged with their own, by date, ties
  /// in file order, and notes users of the timelines that the log does not have.
  @Test func replayAppliesAPersonsTimelinesToThatPersonOnly() throws {
    let log = try DonationLog.read(
      bytes: Array(
        """
        timestamp,user,kind
        2026-03-02T08:00:00Z,ann,A
        2026-03-02T08:00:00Z,bob,A
        2026-03-02T09:00:00Z,ann,B
        2026-03-02T09:00:00Z,bob,B

        """.utf8), file: "log.csv", format: .csv, timeZone: .utc)
    func e(_ time: String, _ score: Double) -> RelevanceEntry {
      RelevanceEntry(date: ZoneRules.utc.resolve(try! ISO8601.parse(time).get()), relevance: Relevance(score: score))
    }
    var options = ReplayOptions()
    options.timelines = TimelineFile(instances: [
      TimelineFile.Instance(id: "B", entries: [e("2026-03-02T08:30:00Z", 5)], user: "bob"),
      TimelineFile.Instance(id: "A", entries: [e("2026-03-02T08:30:00Z", 1), e("2026-03-02T07:00:00Z", 2)]),
      TimelineFile.Instance(id: "B", entries: [e("2026-03-02T08:30:00Z", 3)], user: "ann"),
      TimelineFile.Instance(id: "A", entries: [e("2026-03-02T08:30:00Z", 4)], user: "zoe"),
    ])
    let plan = try ReplayPlan(log: log, options: options)
    let people = plan.people.map { person in
      (person.name, person.entries.map { $0.relevance!.score }, person.entryInstance.map { person.instances[Int($0)].id })
    }
    #expect(people.map(\.0) == ["ann", "bob"])
    // 07:00 A(2); at 08:30 file order: bob's or ann's B (file position 0 or 2) and A(1).
    #expect(people[0].1 == [2, 1, 3])
    #expect(people[0].2 == ["A", "A", "B"])
    #expect(people[1].1 == [2, 5, 1])
    #expect(people[1].2 == ["A", "B", "A"])
    #expect(plan.notes.contains("the timelines of 1 user(s) with no donation in the log are unused (e.g. 'zoe')"))
  }
}
