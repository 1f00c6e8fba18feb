-- Media imported from a plugin's media source by reference (docs/media.md, "Media sources of
-- plugins"; spec 2 rule 6): a linked external item whose bytes stay at the plugin's file address.
-- No R2 object is stored; public delivery and the admin's file route answer a redirect to this
-- address (validated by the outbound address policy at import). NULL for every stored file.
ALTER TABLE media ADD COLUMN external_url TEXT;
