// s3rver ships no types; the part of its API the tests use.
declare module 's3rver' {
  export default class S3rver {
    constructor(opts: { address?: string; port?: number; silent?: boolean; directory: string; configureBuckets?: { name: string; configs: string[] }[] });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
