package fetch

// UserAgentComment ends the default User-Agent header of robots.txt
// requests: where a site's owner learns what software asks.
const UserAgentComment = "(+https://github.com/fastrobots/robots)"

// DefaultUserAgent returns the User-Agent header that the robots.txt
// requests of the crawler agent (a product token such as "ExampleBot")
// carry when none is set: "ExampleBot/1.0 (+https://github.com/fastrobots/robots)",
// or "fastrobots/1.0 …" when agent is "". The Transport and the robots
// command both send it, so that a site sees one header per crawler
// whichever asks.
func DefaultUserAgent(agent string) string {
	if agent == "" {
		agent = "fastrobots"
	}
	return agent + "/1.0 " + UserAgentComment
}
