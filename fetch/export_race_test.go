package fetch

// RaceEnabled is raceEnabled for the tests of package fetch_test.
const RaceEnabled = raceEnabled
