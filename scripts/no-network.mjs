// Loaded with `node --import` into a tool that must run offline (scripts/lint-openapi.mjs): any TCP or TLS connection
// it would open throws instead, so nothing is sent anywhere whatever the tool's own settings.
import net from 'node:net';

net.Socket.prototype.connect = function refuseConnection() {
  throw new Error('This tool runs offline: it tried to open a network connection (scripts/no-network.mjs).');
};
