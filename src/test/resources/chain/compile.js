// Compiles a Solidity file with npm's solc: prints {"abi":…, "bytecode":"0x…", "deployed":"0x…"} of its one contract.
const solc = require("solc");
const fs = require("fs");
const file = process.argv[2];
const input = { language: "Solidity", sources: { [file]: { content: fs.readFileSync(file, "utf8") } },
  settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } } } };
const out = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (out.errors || []).filter(e => e.severity === "error");
if (errors.length) { console.error(errors.map(e => e.formattedMessage).join("\n")); process.exit(1); }
const contracts = out.contracts[file];
const name = Object.keys(contracts)[0];
console.log(JSON.stringify({ name, abi: contracts[name].abi, bytecode: "0x" + contracts[name].evm.bytecode.object,
  deployed: "0x" + contracts[name].evm.deployedBytecode.object }));
