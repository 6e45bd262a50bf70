import Foundation

/// The cookie-date algorithm of RFC 6265 §5.1.1, which reads every date form servers send
/// (`Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`,
/// and sloppier ones): the date is found by its parts, whatever their order and separators.
enum CookieDate {
    /// The date `text` names, in UTC, or `nil` when one of its parts is missing or out of range
    /// (the cookie then has no `Expires`).
    static func parse(_ text: Substring) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            if time == nil, let found = readTime(token) {
                time = found
            } else if day == nil, let found = leadingNumber(token, digits: 1...2) {
                day = found
            } else if month == nil, let found = readMonth(token) {
                month = found
            } else if year == nil, let found = leadingNumber(token, digits: 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, (1...31).contains(day), time.hour <= 23, time.minute <= 59, time.second <= 59,
            day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E` separate the date's tokens.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// `count` leading digits (within `digits`), followed by nothing or by a non-digit and anything.
    private static func leadingNumber(_ token: Substring.UTF8View.SubSequence, digits: ClosedRange<Int>) -> Int? {
        let run = token.prefix(while: isDigit)
        guard digits.contains(run.count) else { return nil }
        return run.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// `hh:mm:ss` with one or two digits per field, optionally followed by a non-digit and anything.
    private static func readTime(_ token: Substring.UTF8View.SubSequence) -> (hour: Int, minute: Int, second: Int)? {
        var fields: [Int] = []
        var rest = token[...]
        for index in 0..<3 {
            let run = rest.prefix(while: isDigit)
            guard (1...2).contains(run.count) else { return nil }
            fields.append(run.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
            rest = rest.dropFirst(run.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (fields[0], fields[1], fields[2])
    }

    /// The month whose three-letter English abbreviation starts the token (any case).
    private static func readMonth(_ token: Substring.UTF8View.SubSequence) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given date of the proleptic Gregorian calendar (year ≥ 1).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        func daysBefore(year: Int) -> Int {
            let previous = year - 1
            return 365 * previous + previous / 4 - previous / 100 + previous / 400
        }
        var days = daysBefore(year: year) - daysBefore(year: 1970)
        for earlier in 1..<month { days += daysIn(month: earlier, year: year) }
        return days + day - 1
    }
}
