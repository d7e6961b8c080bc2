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

@Suite("Emitted logs")
struct LogEmitterTests {
  /// The emitted world, read back through the public formats (donation log, visit log,
  /// stack, timeline JSON) and planned for replay, gives every person exactly the
  /// simulation's visits and relevance entries, in the simulation's processing order.
  @Test func theEmittedWorldReplaysWithEveryPersonsVisitsAndEntries() throws {
    let scenario = try SimulationFixtures.scenario(SimulationFixtures.games)
    let seed = scenario.seed
    var emitter: LogEmitter? = LogEmitter()
    _ = Simulation.run(
      scenario, choice: try StrategyRegistry.builtIn.parse("relevance"), replicate: 0, seed: seed,
      options: SimulationOptions(), observer: StandardMetrics(), emitter: &emitter)
    let world = try #require(emitter)

    let log = try DonationLog.read(
      bytes: Array(world.donationLog.csvText().utf8), file: "donations.csv", format: .csv, timeZone: .utc)
    var options = ReplayOptions()
    options.visits = .log(VisitLog(file: "visits.csv", users: world.visitUsers, times: world.visitTimes))
    options.stack = .fixed(StackSpec(file: "stack.json", instances: scenario.stackInstances, catalog: scenario.catalog))
    options.horizonSeconds = 0
    options.zone = scenario.zone
    options.timelines = try TimelineFile.read(bytes: Array(world.timelines.jsonText().utf8), file: "timelines.json")
    let plan = try ReplayPlan(log: log, options: options)

    #expect(plan.people.count == scenario.personCount)
    var checkedEntries = 0
    for p in 0..<scenario.personCount {
      let simulated = scenario.person(p, replicate: 0, seed: seed)
      let replayed = try #require(plan.people.first { $0.name == simulated.name })
      #expect(replayed.visitTimes == simulated.visitTimes)
      let inStack = simulated.entryInstance.indices.filter { Int(simulated.entryInstance[$0]) < simulated.stackCount }
      #expect(replayed.entryInstance == inStack.map { simulated.entryInstance[$0] }, "\(simulated.name)")
      #expect(replayed.entries == inStack.map { simulated.entries[$0] }, "\(simulated.name)")
      checkedEntries += replayed.entries.count
    }
    #expect(checkedEntries > 50, "the fixture should deliver entries to check")
  }

  /// Entries at one date replay in the simulation's order (by instance, then delivery);
  /// entries of instances outside the stack (suggested widgets) are left out.
  @Test func entriesAtOneDateKeepTheSimulationsOrder() throws {
    let stack = [WidgetInstance(id: "a", kind: "A"), WidgetInstance(id: "b", kind: "B")]
    let t1 = Instant(milliseconds: 1_772_438_400_000)  // 2026-03-02T08:00:00Z
    let t2 = Instant(milliseconds: t1.milliseconds + 60_000)
    let entries = [
      RelevanceEntry(date: t1, relevance: Relevance(score: 1)),
      RelevanceEntry(date: t2, relevance: Relevance(score: 2)),
      RelevanceEntry(date: t2, relevance: Relevance(score: 3)),
      RelevanceEntry(date: t2, relevance: Relevance(score: 4)),
      RelevanceEntry(date: t2, relevance: Relevance(score: 5)),
    ]
    let entryInstance: [Int32] = [1, 0, 0, 1, 2]
    let instances = (stack + [WidgetInstance(id: "suggested", kind: "S")])[...]
    var emitter = LogEmitter()
    emitter.timelines(
      person: "ann", instances: instances, stackCount: 2, entryInstance: entryInstance, entries: entries)
    #expect(emitter.timelines.instances.map(\.id) == ["a", "b"])
    #expect(emitter.timelines.instances.allSatisfy { $0.user == "ann" })
    // A world-recording emitter (an exposure sidecar's) keeps the suggested widget's
    // entries too; its stack's timelines are the plain emitter's.
    var world = LogEmitter(recordsWorld: true)
    world.timelines(
      person: "ann", instances: instances, stackCount: 2, entryInstance: entryInstance, entries: entries)
    #expect(world.timelines.instances.map(\.id) == ["a", "b", "suggested"])
    #expect(world.stackTimelines.jsonText() == emitter.timelines.jsonText())

    let log = try DonationLog.read(
      bytes: Array("timestamp,user,kind\n2026-03-02T09:00:00Z,ann,A\n".utf8), file: "d.csv", format: .csv,
      timeZone: .utc)
    var options = ReplayOptions()
    options.stack = .fixed(StackSpec(file: "stack.json", instances: stack))
    options.timelines = try TimelineFile.read(bytes: Array(emitter.timelines.jsonText().utf8), file: "t.json")
    let person = try ReplayPlan(log: log, options: options).people[0]
    #expect(person.entryInstance == [1, 0, 0, 1])
    #expect(person.entries == Array(entries.prefix(4)))
  }
}
