// "Did you mean" hints for unknown keys (`JSONObjectReader.rejectUnread()`) and for
// strings that are no case of an enumeration (`JSONDecoding.requireCase(_:as:)`).
extension JSONDecoding {
  /// The first of `candidates` within edit distance 2 of `key` (ties: the earliest),
  /// if any. Distances are computed over Unicode scalars.
  static func closest(to key: String, among candidates: [String]) -> String? {
    let target = Array(key.unicodeScalars)
    var best: (distance: Int, text: String)? = nil
    for candidate in candidates {
      let distance = editDistance(target, Array(candidate.unicodeScalars))
      if distance <= 2, distance < (best?.distance ?? Int.max) { best = (distance, candidate) }
    }
    return best?.text
  }

  /// Levenshtein distance. - Complexity: O(a × b).
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
