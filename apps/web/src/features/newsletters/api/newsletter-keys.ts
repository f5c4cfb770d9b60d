/** Query keys of the newsletter editor and its preview: everything starts with "newsletter". */
export const newsletterKeys = {
  preview: (loopId: number, newsletterId: number) => ['newsletter', 'preview', loopId, newsletterId] as const,
};
