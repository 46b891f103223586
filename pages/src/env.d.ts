interface ImportMetaEnv {
  /** The year the site was built, as `vite.config.ts` defines it. */
  readonly SITE_YEAR: string;
}
