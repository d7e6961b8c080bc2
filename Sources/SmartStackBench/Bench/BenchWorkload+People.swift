import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

// The simulated people of the reference workload, one at a time, in replay's form.

extension BenchWorkload {
  /// Person `index` (0-based) of this workload, ready for `Replay.run(_:horizon:session:)`.
  ///
  /// - Complexity: O(E log E) for the person's E events.
  public func person(_ index: Int) -> ReplayPlan.Person {
    var generator = PersonGenerator(self)
    var person = ReplayPlan.Person(name: "", instances: [], alwaysAvailable: true)
    generator.fill(&person, index: index)
    return person
  }

  /// The visit target horizon in milliseconds.
  public var horizonMilliseconds: Int64 { Int64(horizonSeconds) * 1_000 }

  /// Generates people into a reused `ReplayPlan.Person`, keeping buffer capacity between
  /// people, so a run over many people allocates almost nothing per person.
  public struct PersonGenerator: Sendable {
    public let workload: BenchWorkload
    /// Cumulative `dailyRhythm`, for drawing an hour.
    private let rhythm: [Double]
    private var donationKeys: [UInt64] = []
    private var entryDates: [Int64] = []
    private var entryInstances: [Int32] = []
    private var entryRelevance: [Relevance?] = []
    private var entryOrder: [Int32] = []
    /// Per hour (24) and kind (12): the cumulative donation weights of one person.
    private var kindWeights: [Double] = Array(repeating: 0, count: 24 * 12)

    public init(_ workload: BenchWorkload) {
      self.workload = workload
      var sum = 0.0
      rhythm = BenchWorkload.dailyRhythm.map {
        sum += $0
        return sum
      }
    }

    /// An hour 0...23 drawn from the daily rhythm (one draw).
    @inline(__always)
    private func hour(_ rng: inout Xoshiro256StarStar) -> Int {
      let u = rng.nextUnit() * rhythm[23]
      var h = 0
      while h < 23 && rhythm[h] <= u { h += 1 }
      return h
    }

    /// A count drawn uniformly from `mean - mean/k ... mean + mean/k`.
    @inline(__always)
    private func spread(_ mean: Int, _ k: Int, _ rng: inout Xoshiro256StarStar) -> Int {
      let delta = mean / k
      return mean - delta + rng.nextInt(below: 2 * delta + 1)
    }

    /// Overwrites `person` with person `index` of the workload.
    public mutating func fill(_ person: inout ReplayPlan.Person, index: Int) {
      let w = workload
      let kindCount = BenchWorkload.kinds.count
      var rng = StreamSeed.generator(w.seed, 1, UInt64(truncatingIfNeeded: index))
      // Timelines draw from their own stream: visits and donations are the same with
      // and without them.
      var timelineRNG = StreamSeed.generator(w.seed, 4, UInt64(truncatingIfNeeded: index))

      // The stack, preferences and peak hours.
      var stackOrder = Array(0..<kindCount)
      RandomShuffle.shuffle(&stackOrder, using: &rng)
      var preference = Array(0..<kindCount)
      RandomShuffle.shuffle(&preference, using: &rng)
      var peak = [Int](repeating: 0, count: kindCount)
      for k in 0..<kindCount { peak[k] = hour(&rng) }
      var instanceOfKind = [Int32](repeating: -1, count: kindCount)
      person.instances.removeAll(keepingCapacity: true)
      for (position, k) in stackOrder.prefix(w.stackSize).enumerated() {
        instanceOfKind[k] = Int32(position)
        let name = BenchWorkload.kinds[k]
        person.instances.append(WidgetInstance(id: name, kind: name))
      }
      for h in 0..<24 {
        var sum = 0.0
        for k in 0..<kindCount {
          let distance = min(abs(h - peak[k]), 24 - abs(h - peak[k]))
          sum += (distance <= 1 ? 4.0 : 1.0) / Double(preference[k] + 1)
          kindWeights[h * kindCount + k] = sum
        }
      }
      person.name = "person-\(index)"
      person.alwaysAvailable = true

      // Visits and donations, day by day.
      person.visitTimes.removeAll(keepingCapacity: true)
      donationKeys.removeAll(keepingCapacity: true)
      entryDates.removeAll(keepingCapacity: true)
      entryInstances.removeAll(keepingCapacity: true)
      entryRelevance.removeAll(keepingCapacity: true)
      let durations: [Int64] = [0, 900_000, 3_600_000, 7_200_000, 14_400_000]
      for day in 0..<w.days {
        let dayStart = BenchWorkload.start + Int64(day) * 86_400_000
        let firstVisit = person.visitTimes.count
        for _ in 0..<spread(w.visitsPerDay, 9, &rng) {
          let h = hour(&rng)
          person.visitTimes.append(dayStart + Int64(h) * 3_600_000 + Int64(rng.nextInt(below: 3_600_000)))
        }
        person.visitTimes[firstVisit...].sort()
        let dayVisits = person.visitTimes.count - firstVisit
        for _ in 0..<spread(w.donationsPerDay, 6, &rng) {
          var time: Int64
          if rng.nextInt(below: 3) < 2 && dayVisits > 0 {
            time = person.visitTimes[firstVisit + rng.nextInt(below: dayVisits)] + Int64(rng.nextInt(below: 120_001))
          } else {
            time = dayStart + Int64(hour(&rng)) * 3_600_000 + Int64(rng.nextInt(below: 3_600_000))
          }
          let h = Int(time / 3_600_000 % 24)
          let row = h * kindCount
          let u = rng.nextUnit() * kindWeights[row + kindCount - 1]
          var k = 0
          while k < kindCount - 1 && kindWeights[row + k] <= u { k += 1 }
          // Times lie in [2^40, 2^42) ms for centuries: (time, kind) packs into 64 bits.
          donationKeys.append(UInt64(time) << 4 | UInt64(k))
        }
        guard w.relevance else { continue }
        for i in 0..<w.stackSize {
          for _ in 0..<spread(w.entriesPerInstancePerDay, 3, &timelineRNG) {
            let time = dayStart + Int64(hour(&timelineRNG)) * 3_600_000 + Int64(timelineRNG.nextInt(below: 3_600_000))
            var relevance: Relevance? = nil
            if timelineRNG.nextInt(below: 10) != 0 {
              let score =
                timelineRNG.nextInt(below: 5) == 0
                ? -Double(timelineRNG.nextInt(below: 51)) / 100 : Double(1 + timelineRNG.nextInt(below: 100)) / 100
              relevance = Relevance(score: score, durationMilliseconds: durations[timelineRNG.nextInt(below: 5)])
            }
            entryDates.append(time)
            entryInstances.append(Int32(i))
            entryRelevance.append(relevance)
          }
        }
      }

      // Donations in time order (equal times: by kind), their matches, visit targets.
      donationKeys.sort()
      person.donationTimes.removeAll(keepingCapacity: true)
      person.donationKinds.removeAll(keepingCapacity: true)
      person.matches.removeAll(keepingCapacity: true)
      person.matchStart.removeAll(keepingCapacity: true)
      person.matchStart.append(0)
      for key in donationKeys {
        let k = Int(key & 15)
        person.donationTimes.append(Int64(key >> 4))
        person.donationKinds.append(Int32(k))
        if instanceOfKind[k] >= 0 { person.matches.append(instanceOfKind[k]) }
        person.matchStart.append(Int32(person.matches.count))
      }
      let horizon = w.horizonMilliseconds
      person.visitTarget.removeAll(keepingCapacity: true)
      var d = 0
      for v in person.visitTimes {
        while d < person.donationTimes.count && person.donationTimes[d] < v { d += 1 }
        let hit = d < person.donationTimes.count && person.donationTimes[d] - v <= horizon
        person.visitTarget.append(hit ? Int32(d) : -1)
      }

      // Relevance entries by date, equal dates in generation order.
      entryOrder.removeAll(keepingCapacity: true)
      entryOrder.append(contentsOf: 0..<Int32(entryDates.count))
      let dates = entryDates
      entryOrder.sort { dates[Int($0)] != dates[Int($1)] ? dates[Int($0)] < dates[Int($1)] : $0 < $1 }
      person.entryInstance.removeAll(keepingCapacity: true)
      person.entries.removeAll(keepingCapacity: true)
      for e in entryOrder {
        person.entryInstance.append(entryInstances[Int(e)])
        person.entries.append(
          RelevanceEntry(date: Instant(milliseconds: entryDates[Int(e)]), relevance: entryRelevance[Int(e)]))
      }
    }
  }
}
