import http from 'node:http'

/**
 * The baseline: the cheapest possible JSON answer from Node's own HTTP server on this machine.
 * Every scenario's throughput is read as a share of this one's, which cancels out machine speed.
 */
const BODY = JSON.stringify({ status: 'ok' })
const port = Number(process.env.PORT)

http
  .createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) })
    response.end(BODY)
  })
  .listen(port, '127.0.0.1')
