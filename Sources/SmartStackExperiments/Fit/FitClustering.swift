import SmartStackBase

/// Groups people with similar profiles: k-means on `FitProfile.features` (Lloyd's
/// algorithm, squared Euclidean distance) from a seeded k-means++ start (Arthur &
/// Vassilvitskii 2007).
///
/// ## Definition
/// - **Start.** The first centre is person `⌊u·n⌋`; each further centre is drawn with
///   probability proportional to the squared distance to the nearest chosen centre
///   (when every distance is 0, the first person not yet chosen). `u` are
///   `nextUnit()` draws of `StreamSeed.generator(seed, stableHash("fit-clusters"))`.
/// - **Steps.** Assign each person to the nearest centre (the lower index on a tie),
///   move each centre to its members' mean (an empty cluster keeps its centre), and
///   repeat until no assignment changes or after 100 steps.
/// - **Result.** Clusters are numbered by their lowest person index, so the numbering
///   does not depend on the draw order. Empty clusters are dropped.
/// With `k ≥ n` every person is a cluster of their own (no draw).
///
/// - Complexity: O(steps × n × k × features).
public enum FitClustering {
  /// The cluster index of each of `features.count` people, clusters numbered 0... by
  /// their first member.
  public static func assign(_ features: [[Double]], clusters k: Int, seed: UInt64) -> [Int] {
    let n = features.count
    guard k < n else { return Array(0..<n) }
    guard k > 1 else { return Array(repeating: 0, count: n) }
    var random = StreamSeed.generator(seed, StreamSeed.stableHash("fit-clusters"))
    var centres = [features[min(n - 1, Int(random.nextUnit() * Double(n)))]]
    var chosen: Set<Int> = [features.firstIndex(of: centres[0])!]
    while centres.count < k {
      let d = features.map { f in centres.map { distance(f, $0) }.min()! }
      let total = d.reduce(0, +)
      var pick = 0
      if total > 0 {
        let u = random.nextUnit() * total
        var sum = 0.0
        pick = n - 1
        for i in 0..<n {
          sum += d[i]
          if u < sum {
            pick = i
            break
          }
        }
      } else {
        pick = (0..<n).first { !chosen.contains($0) } ?? 0
      }
      chosen.insert(pick)
      centres.append(features[pick])
    }
    var assignment = Array(repeating: -1, count: n)
    for _ in 0..<100 {
      var changed = false
      for i in 0..<n {
        var best = 0
        var bestDistance = Double.infinity
        for (c, centre) in centres.enumerated() {
          let dist = distance(features[i], centre)
          if dist < bestDistance {
            best = c
            bestDistance = dist
          }
        }
        if assignment[i] != best {
          assignment[i] = best
          changed = true
        }
      }
      if !changed { break }
      for c in centres.indices {
        let members = (0..<n).filter { assignment[$0] == c }
        guard !members.isEmpty else { continue }
        var mean = Array(repeating: 0.0, count: features[0].count)
        for m in members {
          for j in mean.indices { mean[j] += features[m][j] }
        }
        centres[c] = mean.map { $0 / Double(members.count) }
      }
    }
    // Renumber by first member.
    var renumber: [Int: Int] = [:]
    return assignment.map { c in
      if let r = renumber[c] { return r }
      let r = renumber.count
      renumber[c] = r
      return r
    }
  }

  /// Squared Euclidean distance.
  static func distance(_ a: [Double], _ b: [Double]) -> Double {
    var sum = 0.0
    for i in a.indices {
      let d = a[i] - b[i]
      sum += d * d
    }
    return sum
  }
}
