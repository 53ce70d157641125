/**
 * A small reader of `prisma/schema.prisma` for the schema-vs-migrations test: models, fields, enums, ids,
 * unique constraints, indexes and relations, turned into the PostgreSQL objects Prisma's migrate would
 * create for them (Prisma's naming conventions: `<Table>_pkey`, `<Table>_<cols>_key`, `<Table>_<cols>_idx`,
 * `<Table>_<col>_fkey`). It covers what this schema uses and throws on anything it does not understand, so
 * a new construct in the schema forces this reader (and the test) to be extended rather than ignored.
 */

/** A column as Postgres's information_schema describes it. */
export interface ExpectedColumn {
  readonly table: string;
  readonly column: string;
  /** information_schema.columns.data_type (`USER-DEFINED` for enums). */
  readonly dataType: string;
  /** udt_name (the enum's name for enums). */
  readonly udtName: string;
  readonly nullable: boolean;
  /** `none`, `autoincrement` (a sequence), `now` (CURRENT_TIMESTAMP) or the literal default text. */
  readonly default: string;
  /** datetime_precision for timestamps, else null. */
  readonly precision: number | null;
}

/** An index (primary keys and unique constraints included). */
export interface ExpectedIndex {
  readonly table: string;
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
  readonly primary: boolean;
}

/** A foreign key. */
export interface ExpectedForeignKey {
  readonly table: string;
  readonly name: string;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
  /** `CASCADE`, `RESTRICT`, `SET NULL`, `NO ACTION`, `SET DEFAULT`. */
  readonly onDelete: string;
  readonly onUpdate: string;
}

/** Everything the schema implies in the database. */
export interface ExpectedSchema {
  readonly tables: string[];
  readonly enums: Record<string, string[]>;
  readonly columns: ExpectedColumn[];
  readonly indexes: ExpectedIndex[];
  readonly foreignKeys: ExpectedForeignKey[];
}

const SCALARS: Record<string, { dataType: string; udtName: string; precision: number | null }> = {
  String: { dataType: 'text', udtName: 'text', precision: null },
  Int: { dataType: 'integer', udtName: 'int4', precision: null },
  BigInt: { dataType: 'bigint', udtName: 'int8', precision: null },
  Boolean: { dataType: 'boolean', udtName: 'bool', precision: null },
  Float: { dataType: 'double precision', udtName: 'float8', precision: null },
  DateTime: { dataType: 'timestamp without time zone', udtName: 'timestamp', precision: 3 },
  Json: { dataType: 'jsonb', udtName: 'jsonb', precision: null },
  Bytes: { dataType: 'bytea', udtName: 'bytea', precision: null },
};

const REFERENTIAL: Record<string, string> = {
  Cascade: 'CASCADE',
  Restrict: 'RESTRICT',
  SetNull: 'SET NULL',
  NoAction: 'NO ACTION',
  SetDefault: 'SET DEFAULT',
};

interface Field {
  name: string;
  type: string;
  optional: boolean;
  list: boolean;
  attrs: string;
}

function stripComments(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, ''))
    .join('\n');
}

function blocks(text: string, kind: 'model' | 'enum'): { name: string; body: string }[] {
  const out: { name: string; body: string }[] = [];
  const re = new RegExp(`^${kind}\\s+(\\w+)\\s*\\{([\\s\\S]*?)^\\}`, 'gm');
  for (const m of text.matchAll(re)) out.push({ name: m[1] as string, body: m[2] as string });
  return out;
}

function listArg(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function attrArg(attrs: string, name: string): string | undefined {
  const m = new RegExp(`@${name}\\(([^)]*)\\)`).exec(attrs);
  return m ? m[1] : undefined;
}

/** Partial indexes, which schema.prisma cannot state; each is made by a migration that names it. */
export const PARTIAL_INDEXES: readonly ExpectedIndex[] = [
  { table: 'Game', name: 'Game_compaction_idx', columns: ['endedAt'], unique: false, primary: false },
  { table: 'Game', name: 'Game_ranked_compaction_idx', columns: ['dailyId'], unique: false, primary: false },
  {
    table: 'Report',
    name: 'Report_open_key',
    columns: ['reporterId', 'playerId'],
    unique: true,
    primary: false,
  },
];

/**
 * Reads schema.prisma text into the database objects Prisma would create, and PARTIAL_INDEXES. Throws on
 * unsupported syntax.
 */
export function expectedFromPrismaSchema(source: string): ExpectedSchema {
  const text = stripComments(source);
  const enums: Record<string, string[]> = {};
  for (const e of blocks(text, 'enum')) {
    if (/@/.test(e.body)) throw new Error(`enum ${e.name}: attributes are not supported by this reader`);
    enums[e.name] = e.body.split(/\s+/).filter(Boolean);
  }
  const models = blocks(text, 'model');
  const modelNames = new Set(models.map((m) => m.name));
  const out: ExpectedSchema = {
    tables: [],
    enums,
    columns: [],
    indexes: [...PARTIAL_INDEXES],
    foreignKeys: [],
  };
  for (const model of models) {
    const table = model.name;
    if (/@@map|@@schema|@@ignore/.test(model.body))
      throw new Error(`model ${table}: @@map/@@schema/@@ignore not supported by this reader`);
    out.tables.push(table);
    const fields: Field[] = [];
    const blockAttrs: string[] = [];
    for (const raw of model.body.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      if (line.startsWith('@@')) {
        blockAttrs.push(line);
        continue;
      }
      const m = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!m) throw new Error(`model ${table}: cannot read "${line}"`);
      fields.push({
        name: m[1] as string,
        type: m[2] as string,
        list: m[3] !== undefined,
        optional: m[4] !== undefined,
        attrs: m[5] ?? '',
      });
    }
    for (const f of fields) {
      if (modelNames.has(f.type)) {
        const rel = attrArg(f.attrs, 'relation');
        if (f.list || rel === undefined) continue; // back-relation: no column
        const cols = listArg(/fields:\s*\[([^\]]*)\]/.exec(rel)?.[1] ?? '');
        const refs = listArg(/references:\s*\[([^\]]*)\]/.exec(rel)?.[1] ?? '');
        const onDelete = /onDelete:\s*(\w+)/.exec(rel)?.[1];
        const onUpdate = /onUpdate:\s*(\w+)/.exec(rel)?.[1];
        out.foreignKeys.push({
          table,
          name: `${table}_${cols.join('_')}_fkey`,
          columns: cols,
          refTable: f.type,
          refColumns: refs,
          // Prisma's defaults: onDelete Restrict for a required relation (SetNull for optional), onUpdate Cascade.
          onDelete: REFERENTIAL[onDelete ?? (f.optional ? 'SetNull' : 'Restrict')] as string,
          onUpdate: REFERENTIAL[onUpdate ?? 'Cascade'] as string,
        });
        continue;
      }
      if (f.list) throw new Error(`model ${table}.${f.name}: scalar lists not supported by this reader`);
      const dateOnly = f.type === 'DateTime' && /@db\.Date\b/.test(f.attrs);
      if (/@map/.test(f.attrs) || (/@db\./.test(f.attrs) && !dateOnly))
        throw new Error(
          `model ${table}.${f.name}: @map/@db (but DateTime @db.Date) not supported by this reader`,
        );
      const isEnum = f.type in enums;
      const scalar = isEnum
        ? { dataType: 'USER-DEFINED', udtName: f.type, precision: null }
        : dateOnly
          ? { dataType: 'date', udtName: 'date', precision: null }
          : SCALARS[f.type];
      if (!scalar) throw new Error(`model ${table}.${f.name}: type ${f.type} not supported by this reader`);
      const def = /@default\((.*?)\)(?:\s|$)/.exec(f.attrs)?.[1];
      let dflt = 'none';
      if (def === 'autoincrement()') dflt = 'autoincrement';
      else if (def === 'now()') dflt = 'now';
      else if (def !== undefined && /^(uuid|cuid|nanoid|ulid)\(/.test(def))
        dflt = 'none'; // generated by Prisma Client, not the database
      else if (def !== undefined && isEnum) dflt = `'${def}'::"${f.type}"`;
      else if (def !== undefined && f.type === 'Json') dflt = `'${JSON.parse(def) as string}'::jsonb`;
      else if (def !== undefined && f.type === 'String') dflt = `'${def.replace(/^"|"$/g, '')}'::text`;
      else if (def !== undefined) dflt = def;
      out.columns.push({ table, column: f.name, ...scalar, nullable: f.optional, default: dflt });
      if (/@id\b/.test(f.attrs))
        out.indexes.push({ table, name: `${table}_pkey`, columns: [f.name], unique: true, primary: true });
      if (/@unique\b/.test(f.attrs))
        out.indexes.push({
          table,
          name: `${table}_${f.name}_key`,
          columns: [f.name],
          unique: true,
          primary: false,
        });
    }
    for (const attr of blockAttrs) {
      const m = /^@@(id|unique|index)\(\s*\[([^\]]*)\]\s*\)$/.exec(attr);
      if (!m) throw new Error(`model ${table}: block attribute "${attr}" not supported by this reader`);
      const cols = listArg(m[2] as string);
      const kind = m[1] as 'id' | 'unique' | 'index';
      const name =
        kind === 'id' ? `${table}_pkey` : `${table}_${cols.join('_')}_${kind === 'unique' ? 'key' : 'idx'}`;
      out.indexes.push({ table, name, columns: cols, unique: kind !== 'index', primary: kind === 'id' });
    }
  }
  return out;
}

/** The names of the partitions in schema $1 (a subquery). */
const PARTITIONS = `SELECT c.relname FROM pg_class c JOIN pg_namespace pn ON pn.oid = c.relnamespace
  WHERE pn.nspname = $1 AND c.relispartition`;

/** A minimal query function (PGlite or node-postgres). */
export type Query = <T extends Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/**
 * Reads the same objects back from a migrated database schema (`_prisma_migrations` excluded). A partitioned
 * table counts once, as its parent: its partitions (and their indexes) are storage, not schema.
 */
export async function introspect(query: Query, schema: string): Promise<ExpectedSchema> {
  const tables = (
    await query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
         AND table_name NOT IN (${PARTITIONS})`,
      [schema],
    )
  ).map((r) => r.table_name);
  const enumRows = await query<{ name: string; value: string }>(
    `SELECT t.typname AS name, e.enumlabel AS value FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
       JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = $1 ORDER BY t.typname, e.enumsortorder`,
    [schema],
  );
  const enums: Record<string, string[]> = {};
  for (const r of enumRows) (enums[r.name] ??= []).push(r.value);
  const colRows = await query<{
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
    is_nullable: string;
    column_default: string | null;
    datetime_precision: number | null;
  }>(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, datetime_precision
       FROM information_schema.columns WHERE table_schema = $1 AND table_name <> '_prisma_migrations'
         AND table_name NOT IN (${PARTITIONS})`,
    [schema],
  );
  const columns: ExpectedColumn[] = colRows.map((r) => {
    let dflt = 'none';
    if (r.column_default !== null) {
      if (r.column_default.startsWith('nextval(')) dflt = 'autoincrement';
      else if (r.column_default === 'CURRENT_TIMESTAMP') dflt = 'now';
      else dflt = r.column_default.replace(/"?\w+"?\."(\w+)"/, '"$1"');
    }
    const timestamp = r.data_type.startsWith('timestamp');
    return {
      table: r.table_name,
      column: r.column_name,
      dataType: r.data_type,
      udtName: r.udt_name,
      nullable: r.is_nullable === 'YES',
      default: dflt,
      precision: timestamp ? r.datetime_precision : null,
    };
  });
  const idxRows = await query<{
    table: string;
    name: string;
    columns: string[] | string;
    unique: boolean;
    primary: boolean;
  }>(
    `SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique, ix.indisprimary AS primary,
            array(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns
       FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = $1 AND t.relname <> '_prisma_migrations'
         AND NOT t.relispartition`,
    [schema],
  );
  const pgArray = (v: string[] | string): string[] =>
    Array.isArray(v)
      ? v
      : v
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean);
  const indexes: ExpectedIndex[] = idxRows.map((r) => ({
    table: r.table,
    name: r.name,
    columns: pgArray(r.columns),
    unique: r.unique,
    primary: r.primary,
  }));
  const fkRows = await query<{
    table: string;
    name: string;
    columns: string[] | string;
    ref_table: string;
    ref_columns: string[] | string;
    on_delete: string;
    on_update: string;
  }>(
    `SELECT t.relname AS table, c.conname AS name, rt.relname AS ref_table,
            array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns,
            array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS ref_columns,
            CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'r' THEN 'RESTRICT' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END AS on_delete,
            CASE c.confupdtype WHEN 'c' THEN 'CASCADE' WHEN 'r' THEN 'RESTRICT' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END AS on_update
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class rt ON rt.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE c.contype = 'f' AND n.nspname = $1`,
    [schema],
  );
  const foreignKeys: ExpectedForeignKey[] = fkRows.map((r) => ({
    table: r.table,
    name: r.name,
    columns: pgArray(r.columns),
    refTable: r.ref_table,
    refColumns: pgArray(r.ref_columns),
    onDelete: r.on_delete,
    onUpdate: r.on_update,
  }));
  return { tables, enums, columns, indexes, foreignKeys };
}

/** Sorts every list so two descriptions compare with toEqual. */
export function normalise(s: ExpectedSchema): ExpectedSchema {
  const by =
    <T>(key: (x: T) => string) =>
    (a: T, b: T) =>
      key(a).localeCompare(key(b));
  return {
    tables: [...s.tables].sort(),
    enums: Object.fromEntries(Object.entries(s.enums).sort(([a], [b]) => a.localeCompare(b))),
    columns: [...s.columns].sort(by((c) => `${c.table}.${c.column}`)),
    indexes: [...s.indexes].sort(by((i) => `${i.table}.${i.name}`)),
    foreignKeys: [...s.foreignKeys].sort(by((f) => `${f.table}.${f.name}`)),
  };
}
