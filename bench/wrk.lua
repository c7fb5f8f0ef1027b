-- wrk.lua: the requests of one bench scenario (bench/run.sh), chosen by
-- environment variables because wrk passes a script no arguments of its own:
--
--   BENCH_BODY  a request body template: POST it, with every "@ID@" replaced
--               by SALT-THREAD-N, a value no other request of the run has
--               (a new visitor for consent, new domains for scripts);
--               unset: GET
--   BENCH_SALT  what makes the ids of this run differ from every other run
--
-- Every request carries the headers a browser on the bench site sends, and
-- CF-IPCountry, so the endpoints never open a GeoIP database.  done() prints
-- one machine-readable line for run.sh.

local salt = os.getenv("BENCH_SALT") or "s"
local body_file = os.getenv("BENCH_BODY")
local template = nil
local counter = 0
local threads = 0

local headers = {
	["Origin"] = "https://www.bench.example",
	["User-Agent"] = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
		.. "(KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
	["Accept-Language"] = "de-DE,de;q=0.9,en;q=0.8",
	["CF-IPCountry"] = "DE",
}

function setup(thread)
	threads = threads + 1
	thread:set("tid", threads)
end

function init(args)
	if body_file ~= nil and body_file ~= "" then
		local f = assert(io.open(body_file, "rb"))
		template = f:read("*a")
		f:close()
		headers["Content-Type"] = "application/json"
	end
end

function request()
	if template == nil then
		return wrk.format("GET", nil, headers)
	end
	counter = counter + 1
	local id = salt .. "-" .. tostring(tid) .. "-" .. counter
	local body = template:gsub("@ID@", id)
	return wrk.format("POST", nil, headers, body)
end

function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format(
		"RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d errors=%d status_errors=%d\n",
		summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
		e.connect + e.read + e.write + e.timeout, e.status))
end
