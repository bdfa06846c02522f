/// A series cut into blocks measured in turn with other series (`BesideTheFloor`).
public enum MeasurementBlocks {
    /// `rounds` cut into `turns` blocks, in order, none empty, their sizes at most one apart.
    public static func blocks(of rounds: Range<Int>, turns: Int) -> [Range<Int>] {
        (0..<turns).map { turn in
            (rounds.lowerBound + rounds.count * turn / turns)..<(rounds.lowerBound + rounds.count * (turn + 1) / turns)
        }.filter { !$0.isEmpty }
    }
}
