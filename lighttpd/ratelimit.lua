-- ratelimit.lua: 20 requests per 10 s per client address in front of the
-- consent API (spec section 8), run by lighttpd's mod_magnet before the CGI
-- program is spawned.  consent.conf attaches it to /functions/v1/.
--
-- A sliding window: a client may make LIMIT requests in any WINDOW seconds.
-- The next one is answered 429 with Retry-After (whole seconds until its
-- oldest request leaves the window) and the API's usual CORS and cache
-- headers.  Refused requests are not counted, so a client that waits
-- Retry-After seconds always gets through.
--
-- State lives in package.loaded (plain globals are reset for every request)
-- and is per lighttpd process: with server.max-worker = N a client can get
-- up to N * LIMIT requests through per window.  Memory is bounded: clients
-- whose newest request has left the window are swept out every WINDOW
-- seconds, and at most MAX_CLIENTS addresses are tracked.  Past that a new
-- address is let through untracked until a sweep makes room: a flood of
-- more than MAX_CLIENTS addresses defeats a per-address limit anyway, and
-- failing open keeps the API up for everyone else.

local LIMIT       = 20     -- requests a client may make ...
local WINDOW      = 10     -- ... in this many seconds (spec 8)
local MAX_CLIENTS = 10000  -- addresses tracked at once, under 1 KiB each

local r = lighty.r

local state = package.loaded["consent.ratelimit"]
if state == nil then
	-- clients: address -> times of its counted requests, oldest first
	state = { clients = {}, count = 0, swept = 0, last = 0 }
	package.loaded["consent.ratelimit"] = state
end

local sec, nsec = lighty.c.hrtime()
local now = sec + nsec / 1e9

-- The wall clock stepped back: the stored times mean nothing any more.
if now < state.last - 1 then
	state.clients, state.count, state.swept = {}, 0, now
end
state.last = now

-- Forget every client whose newest request has left the window.
local function sweep()
	local n = 0
	for addr, times in pairs(state.clients) do
		if times[#times] <= now - WINDOW then
			state.clients[addr] = nil
		else
			n = n + 1
		end
	end
	state.count, state.swept = n, now
end

-- The 429 answer, with the headers every answer of the API carries
-- (CONTRACT 7) so that a browser's script can read it.
local function refuse(retry)
	local origin = r.req_header["Origin"]
	if origin == nil or not origin:match("^https?://[%w%.%-]+$")
	    and not origin:match("^https?://[%w%.%-]+:%d+$") then
		origin = "*"
	end
	local h = r.resp_header
	h["Retry-After"] = tostring(retry)
	h["Content-Type"] = "application/json; charset=utf-8"
	h["Cache-Control"] = "private, no-store"
	h["Access-Control-Allow-Origin"] = origin
	h["Vary"] = "Origin"
	h["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
	h["Access-Control-Allow-Headers"] = "authorization, x-client-info, apikey, content-type"
	h["Access-Control-Max-Age"] = "86400"
	r.resp_body.set({ '{"error":"Too many requests"}' })
	return 429
end

if now - state.swept >= WINDOW then
	sweep()
end

local addr = r.req_attr["request.remote-addr"]
if addr == nil then
	return 0
end

local times = state.clients[addr]
if times == nil then
	if state.count >= MAX_CLIENTS and now - state.swept >= 1 then
		sweep()
	end
	if state.count >= MAX_CLIENTS then
		return 0
	end
	times = {}
	state.clients[addr] = times
	state.count = state.count + 1
end

-- Drop this client's requests that have left the window.
local expired = 0
while times[expired + 1] ~= nil and times[expired + 1] <= now - WINDOW do
	expired = expired + 1
end
if expired > 0 then
	-- Shift the rest to the front; the source runs `expired` slots past the
	-- end so that those nils clear the tail.
	table.move(times, expired + 1, #times + expired, 1)
end

if #times >= LIMIT then
	local retry = math.ceil(times[1] + WINDOW - now)
	if retry < 1 then retry = 1 end
	return refuse(retry)
end
times[#times + 1] = now
return 0
