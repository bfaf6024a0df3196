// SPDX-License-Identifier: GPL-3.0-or-later
// The opening table the bundler supplies (web/openings-table.mjs): `EPD<TAB>ECO<TAB>name` lines.

declare module 'axon:openings-table' {
  const table: string;
  export default table;
}
